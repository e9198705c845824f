package dev.controlplane.write;

import dev.controlplane.metadata.model.Broker;
import java.util.Comparator;

/** A broker that can take shards, with the number of shard replicas and leaderships it holds. */
public record BrokerLoad(Broker broker, int replicas, int leaders) {

  /** The order placement takes brokers in: fewest replicas first, then by name. */
  public static final Comparator<BrokerLoad> BY_LOAD =
      Comparator.comparingInt(BrokerLoad::replicas).thenComparing(BrokerLoad::name);

  public String name() {
    return broker.name();
  }

  public boolean hasRoom() {
    Integer max = broker.capacity().maxShards();
    return max == null || replicas < max;
  }

  public BrokerLoad plusReplica(boolean leader) {
    return new BrokerLoad(broker, replicas + 1, leaders + (leader ? 1 : 0));
  }
}
