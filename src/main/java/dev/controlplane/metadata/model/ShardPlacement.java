package dev.controlplane.metadata.model;

import java.util.List;

/** Where every shard of one stream lives: a leader and its replicas (the leader is one of them). */
public record ShardPlacement(
    String tenant, String namespace, String stream, List<ShardAssignment> placements, long version)
    implements Resource {

  public ShardPlacement {
    placements = List.copyOf(placements);
  }

  public record ShardAssignment(int shardId, String leader, List<String> replicas) {
    public ShardAssignment {
      replicas = List.copyOf(replicas);
    }
  }

  public StreamRef ref() {
    return new StreamRef(tenant, namespace, stream);
  }

  @Override
  public ResourceKind kind() {
    return ResourceKind.SHARD_PLACEMENT;
  }

  @Override
  public String key() {
    return ref().key();
  }

  @Override
  public ShardPlacement withVersion(long newVersion) {
    return new ShardPlacement(tenant, namespace, stream, placements, newVersion);
  }
}
