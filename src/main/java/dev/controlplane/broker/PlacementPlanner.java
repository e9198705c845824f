package dev.controlplane.broker;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.metadata.model.ShardPlacement.ShardAssignment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Places the shards of a new stream: each shard on {@code replicationFactor} distinct brokers, the
 * least loaded first, spread across availability zones while unused zones remain, never above a
 * broker's {@code max_shards}; the leader of each shard is the chosen replica leading the fewest
 * shards. Pure: the caller supplies the candidate brokers (active ones only, each once) and their
 * load.
 */
public final class PlacementPlanner {

  /** The order replicas are chosen in: least replicas first, then by name. */
  private static final Comparator<BrokerLoad> BY_LOAD =
      Comparator.comparingInt(BrokerLoad::replicas).thenComparing(BrokerLoad::name);

  private PlacementPlanner() {}

  /**
   * The brokers are sorted by load once per stream, not once per shard: after each shard only the
   * chosen replicas move, and they are put back in place by binary search. With 1,000 brokers and
   * 16 shards that is one sort instead of sixteen, on the write pipeline's thread.
   */
  public static List<ShardAssignment> placeShards(
      int shards, int replicationFactor, List<BrokerLoad> candidates) {
    List<BrokerLoad> ordered = new ArrayList<>(candidates);
    ordered.sort(BY_LOAD);
    List<ShardAssignment> out = new ArrayList<>(shards);
    for (int shard = 0; shard < shards; shard++) {
      List<BrokerLoad> chosen = chooseReplicas(replicationFactor, ordered, shard);
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
        ordered.remove(Collections.binarySearch(ordered, b, BY_LOAD));
        BrokerLoad after = b.plusReplica(b.name().equals(leader.name()));
        ordered.add(-Collections.binarySearch(ordered, after, BY_LOAD) - 1, after);
      }
      out.add(new ShardAssignment(shard, leader.name(), replicas));
    }
    return out;
  }

  /**
   * Up to {@code rf} brokers with room from {@code ordered} (sorted {@link #BY_LOAD}): first the
   * least loaded of each zone not yet used, then the least loaded of the rest.
   */
  private static List<BrokerLoad> chooseReplicas(int rf, List<BrokerLoad> ordered, int shard) {
    int withRoom = 0;
    for (BrokerLoad b : ordered) {
      if (b.hasRoom()) {
        withRoom++;
      }
    }
    if (withRoom < rf) {
      throw new ControlPlaneException(
          ErrorCode.FAILED_PRECONDITION,
          "replication factor "
              + rf
              + " needs "
              + rf
              + " active brokers with free capacity; "
              + withRoom
              + " available for shard "
              + shard);
    }
    List<BrokerLoad> chosen = new ArrayList<>();
    Set<String> zones = new HashSet<>();
    for (BrokerLoad b : ordered) {
      if (chosen.size() < rf && b.hasRoom() && zones.add(b.broker().availabilityZone())) {
        chosen.add(b);
      }
    }
    for (BrokerLoad b : ordered) {
      if (chosen.size() < rf && b.hasRoom() && !chosen.contains(b)) {
        chosen.add(b);
      }
    }
    return chosen;
  }
}
