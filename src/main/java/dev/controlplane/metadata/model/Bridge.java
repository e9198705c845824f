package dev.controlplane.metadata.model;

import java.util.List;

/**
 * A bridge: the streams the data plane copies from one region to another, and the key that encrypts
 * them on the way. Cluster-wide like a broker, since its streams may belong to several tenants.
 * {@code streams} keep the order they were written in; {@code encryptionKeyId} is empty when none
 * is named.
 */
public record Bridge(
    String name,
    String sourceRegion,
    String targetRegion,
    List<StreamRef> streams,
    String encryptionKeyId,
    long version)
    implements Resource {

  public Bridge {
    streams = streams == null ? List.of() : List.copyOf(streams);
    encryptionKeyId = encryptionKeyId == null ? "" : encryptionKeyId;
  }

  @Override
  public ResourceKind kind() {
    return ResourceKind.BRIDGE;
  }

  @Override
  public String key() {
    return name;
  }

  @Override
  public Bridge withVersion(long newVersion) {
    return new Bridge(name, sourceRegion, targetRegion, streams, encryptionKeyId, newVersion);
  }
}
