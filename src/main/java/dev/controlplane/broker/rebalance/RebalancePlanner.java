package dev.controlplane.broker.rebalance;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.metadata.model.Broker;
import dev.controlplane.metadata.model.ShardPlacement;
import dev.controlplane.metadata.model.ShardPlacement.ShardAssignment;
import dev.controlplane.metadata.model.StreamRef;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Plans a rebalance. Every strategy first empties draining and down brokers, then evens out load;
 * they differ in what else they optimise (see {@link Strategy}). Only shards of placements in scope
 * move, but load is counted over the whole cluster, so a scoped rebalance moves its shards from hot
 * brokers to cold ones.
 */
public final class RebalancePlanner {

  private RebalancePlanner() {}

  /** The moves, and the new placement of every stream that changed. */
  public record Plan(
      List<PlannedMove> moves, Map<StreamRef, List<ShardAssignment>> changedPlacements) {
    public long replicaMoves() {
      return moves.stream().filter(m -> !m.leadership()).count();
    }
  }

  public static Plan plan(
      Strategy strategy,
      Collection<Broker> brokers,
      Collection<ShardPlacement> placements,
      Predicate<ShardPlacement> inScope) {
    ClusterLayout layout = new ClusterLayout(brokers, placements, inScope);
    if (layout.targets().isEmpty()) {
      throw new ControlPlaneException(
          ErrorCode.FAILED_PRECONDITION, "no active broker to place shards on");
    }
    boolean keepZones = strategy == Strategy.LOCALITY_AWARE;
    evacuate(layout);
    if (strategy == Strategy.LOCALITY_AWARE) {
      spreadOver(layout, false);
      spreadOver(layout, true);
    }
    if (strategy == Strategy.BALANCED) {
      spreadStreams(layout);
    }
    evenReplicas(layout, keepZones);
    // Minimal movement balances leaderships by transfers only: a swap would move data.
    evenLeaders(layout, strategy != Strategy.MINIMIZE_MOVEMENT, keepZones);
    List<PlannedMove> moves = layout.moves();
    Set<StreamRef> changed = new HashSet<>();
    moves.forEach(m -> changed.add(m.stream()));
    Map<StreamRef, List<ShardAssignment>> after = new HashMap<>(layout.placementsAfter());
    after.keySet().retainAll(changed);
    return new Plan(moves, after);
  }

  /** Moves every replica off draining and down brokers, to the least loaded broker that fits. */
  private static void evacuate(ClusterLayout layout) {
    for (String gone : layout.evacuated()) {
      for (ShardSlot slot : new ArrayList<>(layout.slotsOn(gone))) {
        if (slot.movable) {
          bestReceiver(layout, slot, gone).ifPresent(to -> layout.moveReplica(slot, gone, to));
        }
      }
    }
  }

  /**
   * The least loaded broker that can take the slot, preferring a zone the slot's other replicas do
   * not use.
   */
  private static java.util.Optional<String> bestReceiver(
      ClusterLayout layout, ShardSlot slot, String from) {
    Set<String> usedZones = layout.zonesOfOthers(slot, from, false);
    return layout.targets().stream()
        .map(Broker::name)
        .filter(b -> layout.canReceive(slot, b))
        .min(
            Comparator.<String>comparingInt(
                    b -> usedZones.contains(layout.broker(b).availabilityZone()) ? 1 : 0)
                .thenComparingInt(layout::replicasOn)
                .thenComparing(b -> b));
  }

  /**
   * Moves replicas that share a zone (or a region) with another replica of their shard to a zone
   * (region) the shard does not use yet, while such a broker has room.
   */
  private static void spreadOver(ClusterLayout layout, boolean regions) {
    for (ShardSlot slot : layout.slots()) {
      if (!slot.movable) {
        continue;
      }
      for (String replica : new ArrayList<>(slot.replicas)) {
        String place = place(layout, replica, regions);
        Set<String> others = layout.zonesOfOthers(slot, replica, regions);
        if (!others.contains(place)) {
          continue;
        }
        layout.targets().stream()
            .map(Broker::name)
            .filter(b -> layout.canReceive(slot, b))
            .filter(b -> !others.contains(place(layout, b, regions)))
            .min(Comparator.<String>comparingInt(layout::replicasOn).thenComparing(b -> b))
            .ifPresent(to -> layout.moveReplica(slot, replica, to));
      }
    }
  }

  private static String place(ClusterLayout layout, String broker, boolean regions) {
    Broker b = layout.broker(broker);
    return b == null ? "" : regions ? b.region() : b.availabilityZone();
  }

  /**
   * Keeps two replicas of one stream's shards on one broker only when there are not enough brokers.
   */
  private static void spreadStreams(ClusterLayout layout) {
    Map<StreamRef, List<ShardSlot>> byStream = new HashMap<>();
    layout.slots().stream()
        .filter(s -> s.movable)
        .forEach(s -> byStream.computeIfAbsent(s.stream, k -> new ArrayList<>()).add(s));
    int brokers = layout.targets().size();
    for (List<ShardSlot> streamSlots : byStream.values()) {
      int replicas = streamSlots.stream().mapToInt(s -> s.replicas.size()).sum();
      int cap = (replicas + brokers - 1) / brokers;
      Map<String, Integer> perBroker = new HashMap<>();
      streamSlots.forEach(s -> s.replicas.forEach(r -> perBroker.merge(r, 1, Integer::sum)));
      for (ShardSlot slot : streamSlots) {
        for (String replica : new ArrayList<>(slot.replicas)) {
          if (perBroker.getOrDefault(replica, 0) <= cap) {
            continue;
          }
          layout.targets().stream()
              .map(Broker::name)
              .filter(b -> layout.canReceive(slot, b) && perBroker.getOrDefault(b, 0) < cap)
              .min(Comparator.<String>comparingInt(layout::replicasOn).thenComparing(b -> b))
              .ifPresent(
                  to -> {
                    layout.moveReplica(slot, replica, to);
                    perBroker.merge(replica, -1, Integer::sum);
                    perBroker.merge(to, 1, Integer::sum);
                  });
        }
      }
    }
  }

  /**
   * Moves one replica at a time from the most loaded active broker to the least loaded one until
   * they differ by at most one: every move closes the gap by two, so no plan reaches that state
   * with fewer moves. With {@code keepZones}, a move never puts two replicas of a shard in one
   * zone.
   */
  private static void evenReplicas(ClusterLayout layout, boolean keepZones) {
    Set<String> stuck = new HashSet<>();
    while (true) {
      List<String> targets = layout.targets().stream().map(Broker::name).toList();
      String over =
          targets.stream()
              .filter(b -> !stuck.contains(b))
              .max(Comparator.comparingInt(layout::replicasOn))
              .orElse(null);
      String under =
          targets.stream()
              .filter(layout::hasRoom)
              .min(Comparator.comparingInt(layout::replicasOn))
              .orElse(null);
      if (over == null
          || under == null
          || layout.replicasOn(over) - layout.replicasOn(under) <= 1) {
        return;
      }
      if (!moveOne(layout, over, targets, keepZones)) {
        stuck.add(over);
      }
    }
  }

  /**
   * Moves one replica off {@code over} to the least loaded broker that can take one; false if none
   * can. When {@code over} also leads more than the receiver, a shard it leads goes first, so that
   * evening out replicas evens out leaderships too (a single-replica shard's leadership can move no
   * other way).
   */
  private static boolean moveOne(
      ClusterLayout layout, String over, List<String> targets, boolean keepZones) {
    int overLoad = layout.replicasOn(over);
    List<String> receivers =
        targets.stream()
            .filter(b -> layout.hasRoom(b) && layout.replicasOn(b) + 1 < overLoad)
            .sorted(Comparator.<String>comparingInt(layout::replicasOn).thenComparing(b -> b))
            .toList();
    for (String to : receivers) {
      boolean preferLed = layout.leadersOn(over) > layout.leadersOn(to) + 1;
      for (boolean led : new boolean[] {preferLed, !preferLed}) {
        for (ShardSlot slot : layout.slotsOn(over)) {
          if (slot.leader.equals(over) == led && fits(layout, slot, over, to, keepZones)) {
            layout.moveReplica(slot, over, to);
            return true;
          }
        }
      }
    }
    return false;
  }

  private static boolean fits(
      ClusterLayout layout, ShardSlot slot, String from, String to, boolean keepZones) {
    if (!slot.movable || slot.hasReplicaOn(to)) {
      return false;
    }
    return !keepZones
        || place(layout, to, false).equals(place(layout, from, false))
        || !layout.zonesOfOthers(slot, from, false).contains(place(layout, to, false));
  }

  /**
   * Hands leaderships from the broker leading most to the replica leading least, until within one.
   */
  private static void evenLeaders(ClusterLayout layout, boolean allowSwaps, boolean keepZones) {
    Set<String> stuck = new HashSet<>();
    while (true) {
      List<String> targets = layout.targets().stream().map(Broker::name).toList();
      String over =
          targets.stream()
              .filter(b -> !stuck.contains(b))
              .max(Comparator.comparingInt(layout::leadersOn))
              .orElse(null);
      int min = targets.stream().mapToInt(layout::leadersOn).min().orElse(0);
      if (over == null || layout.leadersOn(over) - min <= 1) {
        return;
      }
      if (!handOverOne(layout, over) && !(allowSwaps && swapSoleReplica(layout, over, keepZones))) {
        stuck.add(over);
      }
    }
  }

  private static boolean handOverOne(ClusterLayout layout, String over) {
    int overLeads = layout.leadersOn(over);
    ShardSlot bestSlot = null;
    String bestTo = null;
    for (ShardSlot slot : layout.slotsOn(over)) {
      if (!slot.movable || !slot.leader.equals(over)) {
        continue;
      }
      for (String r : slot.replicas) {
        Broker b = layout.broker(r);
        if (!r.equals(over)
            && b != null
            && b.status() == Broker.Status.ACTIVE
            && layout.leadersOn(r) + 1 < overLeads
            && (bestTo == null || layout.leadersOn(r) < layout.leadersOn(bestTo))) {
          bestSlot = slot;
          bestTo = r;
        }
      }
    }
    if (bestSlot == null) {
      return false;
    }
    layout.transferLeadership(bestSlot, bestTo);
    return true;
  }

  /**
   * A shard with one replica can change leader only by moving. Moves one such shard led by {@code
   * over} to the broker leading least, and a shard {@code over} does not lead back, so replica
   * counts stay as they were.
   */
  private static boolean swapSoleReplica(ClusterLayout layout, String over, boolean keepZones) {
    List<String> lighter =
        layout.targets().stream()
            .map(Broker::name)
            .filter(b -> layout.leadersOn(b) + 1 < layout.leadersOn(over))
            .sorted(Comparator.<String>comparingInt(layout::leadersOn).thenComparing(b -> b))
            .toList();
    for (String to : lighter) {
      ShardSlot sole =
          layout.slotsOn(over).stream()
              .filter(s -> s.movable && s.replicas.size() == 1 && !s.hasReplicaOn(to))
              .findFirst()
              .orElse(null);
      ShardSlot back =
          layout.slotsOn(to).stream()
              .filter(s -> !s.leader.equals(to) && fits(layout, s, to, over, keepZones))
              .findFirst()
              .orElse(null);
      if (sole != null && back != null) {
        layout.moveReplica(sole, over, to);
        layout.moveReplica(back, to, over);
        return true;
      }
    }
    return false;
  }
}
