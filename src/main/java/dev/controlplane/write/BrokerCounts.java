package dev.controlplane.write;

/** How many shard replicas and leaderships one broker holds (a row of {@code broker_load}). */
public record BrokerCounts(int replicas, int leaders) {

  public static final BrokerCounts NONE = new BrokerCounts(0, 0);

  BrokerCounts plus(int replicaDelta, int leaderDelta) {
    return new BrokerCounts(replicas + replicaDelta, leaders + leaderDelta);
  }
}
