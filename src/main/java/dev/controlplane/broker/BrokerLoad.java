package dev.controlplane.broker;

import dev.controlplane.metadata.model.Broker;

/** A broker that can take shards, with the number of shard replicas and leaderships it holds. */
public record BrokerLoad(Broker broker, int replicas, int leaders) {

  public String name() {
    return broker.name();
  }

  boolean hasRoom() {
    Integer max = broker.capacity().maxShards();
    return max == null || replicas < max;
  }

  BrokerLoad plusReplica(boolean leader) {
    return new BrokerLoad(broker, replicas + 1, leaders + (leader ? 1 : 0));
  }
}
