package dev.controlplane.metadata.model;

/** The identity chain of a stream: tenant, namespace, stream. */
public record StreamRef(String tenant, String namespace, String stream) {

  public String key() {
    return tenant + "/" + namespace + "/" + stream;
  }

  @Override
  public String toString() {
    return key();
  }
}
