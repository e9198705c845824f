package dev.controlplane.metadata.log;

/** Told when a metadata write committed somewhere (on this node, or on another through NOTIFY). */
public interface CommitSignal {
  void committed();
}
