package dev.controlplane.metadata.model;

/** The kind of change a MetadataUpdate records. */
public enum UpdateType {
  CREATE,
  UPDATE,
  DELETE
}
