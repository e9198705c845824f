package dev.controlplane.write;

/**
 * How many shard replicas and leaderships one broker holds: the leader's count, derived from the
 * placements (the {@code broker_load} view computes the same from the table).
 */
public record BrokerCounts(int replicas, int leaders) {

  public static final BrokerCounts NONE = new BrokerCounts(0, 0);

  BrokerCounts plus(int replicaDelta, int leaderDelta) {
    return new BrokerCounts(replicas + replicaDelta, leaders + leaderDelta);
  }
}
