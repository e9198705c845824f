package dev.controlplane.metadata.model;

/**
 * A versioned metadata resource. {@link #key()} identifies it within its kind ({@code acme}, {@code
 * acme/orders}, {@code acme/orders/payments}, or a broker or bridge name); {@link #version()} is
 * the metadata version of its last change, 0 before it is stored.
 */
public sealed interface Resource permits Tenant, Namespace, Stream, ShardPlacement, Broker, Bridge {

  ResourceKind kind();

  String key();

  long version();

  Resource withVersion(long version);

  /** Key of the resource in a map holding every kind: kind and key together. */
  default ResourceId id() {
    return new ResourceId(kind(), key());
  }
}
