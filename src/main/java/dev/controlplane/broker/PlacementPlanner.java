package dev.controlplane.broker;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.metadata.model.ShardPlacement.ShardAssignment;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Places the shards of a new stream: each shard on {@code replicationFactor} distinct brokers, the
 * least loaded first, spread across availability zones while unused zones remain, never above a
 * broker's {@code max_shards}; the leader of each shard is the chosen replica leading the fewest
 * shards. Pure: the caller supplies the candidate brokers (active ones only) and their load.
 */
public final class PlacementPlanner {

  private PlacementPlanner() {}

  public static List<ShardAssignment> placeShards(
      int shards, int replicationFactor, List<BrokerLoad> candidates) {
    Map<String, BrokerLoad> load = new LinkedHashMap<>();
    candidates.forEach(c -> load.put(c.name(), c));
    List<ShardAssignment> out = new ArrayList<>(shards);
    for (int shard = 0; shard < shards; shard++) {
      List<BrokerLoad> chosen = chooseReplicas(replicationFactor, load, shard);
      BrokerLoad leader =
          chosen.stream()
              .min(
                  Comparator.comparingInt(BrokerLoad::leaders)
                      .thenComparingInt(BrokerLoad::replicas)
                      .thenComparing(BrokerLoad::name))
              .orElseThrow();
      List<String> replicas = new ArrayList<>();
      replicas.add(leader.name());
      chosen.stream()
          .map(BrokerLoad::name)
          .filter(n -> !n.equals(leader.name()))
          .forEach(replicas::add);
      for (BrokerLoad b : chosen) {
        load.put(b.name(), load.get(b.name()).plusReplica(b.name().equals(leader.name())));
      }
      out.add(new ShardAssignment(shard, leader.name(), replicas));
    }
    return out;
  }

  private static List<BrokerLoad> chooseReplicas(int rf, Map<String, BrokerLoad> load, int shard) {
    List<BrokerLoad> ordered =
        load.values().stream()
            .filter(BrokerLoad::hasRoom)
            .sorted(Comparator.comparingInt(BrokerLoad::replicas).thenComparing(BrokerLoad::name))
            .toList();
    if (ordered.size() < rf) {
      throw new ControlPlaneException(
          ErrorCode.FAILED_PRECONDITION,
          "replication factor "
              + rf
              + " needs "
              + rf
              + " active brokers with free capacity; "
              + ordered.size()
              + " available for shard "
              + shard);
    }
    List<BrokerLoad> chosen = new ArrayList<>();
    Set<String> zones = new HashSet<>();
    for (BrokerLoad b : ordered) {
      if (chosen.size() < rf && zones.add(b.broker().availabilityZone())) {
        chosen.add(b);
      }
    }
    for (BrokerLoad b : ordered) {
      if (chosen.size() < rf && !chosen.contains(b)) {
        chosen.add(b);
      }
    }
    return chosen;
  }
}
