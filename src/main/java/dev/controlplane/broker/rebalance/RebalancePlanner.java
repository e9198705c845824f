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
import java.util.Optional;
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
    boolean localityFirst = strategy == Strategy.LOCALITY_AWARE;
    evacuate(layout, localityFirst);
    if (localityFirst) {
      spreadOverZones(layout);
      spreadOverRegions(layout);
    }
    if (strategy == Strategy.BALANCED) {
      spreadStreams(layout);
    }
    evenReplicas(layout, localityFirst);
    // Minimal movement balances leaderships by transfers only: a swap would move data.
    evenLeaders(layout, strategy != Strategy.MINIMIZE_MOVEMENT, localityFirst);
    List<PlannedMove> moves = layout.moves();
    Set<StreamRef> changed = new HashSet<>();
    moves.forEach(m -> changed.add(m.stream()));
    Map<StreamRef, List<ShardAssignment>> after = new HashMap<>(layout.placementsAfter());
    after.keySet().retainAll(changed);
    return new Plan(moves, after);
  }

  /**
   * Moves every replica off draining and down brokers, to a broker that fits ({@link
   * #bestReceiver}). A replica that finds none (every active broker holds one of its shard already,
   * or none has room) stays, but not its leadership: that goes to the active replica leading least,
   * which moves no data.
   */
  private static void evacuate(ClusterLayout layout, boolean localityFirst) {
    Set<String> active = new HashSet<>();
    layout.targets().forEach(b -> active.add(b.name()));
    EvenCounts even = EvenCounts.afterEvacuation(layout);
    for (String gone : layout.evacuated()) {
      for (ShardSlot slot : new ArrayList<>(layout.slotsOn(gone))) {
        if (!slot.movable) {
          continue;
        }
        bestReceiver(layout, slot, gone, even, localityFirst)
            .ifPresent(to -> layout.moveReplica(slot, gone, to));
        if (slot.leader.equals(gone)) {
          slot.replicas.stream()
              .filter(active::contains)
              .min(Comparator.comparingInt(layout::leadersOn).thenComparing(r -> r))
              .ifPresent(to -> layout.transferLeadership(slot, to));
        }
      }
    }
  }

  /**
   * The broker to take a replica of {@code slot} off {@code from}. The move count comes first: a
   * receiver that would have to give a replica away again costs a second move, so brokers below the
   * average come first. Among those equally good for the count, one in a zone the shard's other
   * replicas do not use, then one in a region they do not use, so that evacuating keeps the shard's
   * zone and region spread where even counts allow it, then the least loaded. With {@code
   * localityFirst} the zone comes before the count, as everywhere in LOCALITY_AWARE (the least
   * loaded in that zone; the count only breaks ties); the region still comes after the count, as
   * LOCALITY_AWARE spreads regions only onto brokers below the average.
   */
  private static Optional<String> bestReceiver(
      ClusterLayout layout, ShardSlot slot, String from, EvenCounts even, boolean localityFirst) {
    Comparator<String> count = Comparator.comparingInt(b -> even.cost(layout.replicasOn(b)));
    Comparator<String> zone =
        Comparator.comparingInt(b -> layout.zoneUsedByOthers(slot, from, layout.zone(b)) ? 1 : 0);
    Comparator<String> region =
        Comparator.comparingInt(
            b -> layout.regionUsedByOthers(slot, from, layout.region(b)) ? 1 : 0);
    return layout.targets().stream()
        .map(Broker::name)
        .filter(b -> layout.canReceive(slot, b))
        .min(
            (localityFirst ? zone.thenComparing(count) : count.thenComparing(zone))
                .thenComparing(region)
                .thenComparingInt(layout::replicasOn)
                .thenComparing(b -> b));
  }

  /**
   * Moves each replica that shares a zone with another replica of its shard to the least loaded
   * broker of a zone the shard does not use, while one has room. Zones come before even load: a
   * shard spread over zones survives the loss of one.
   */
  private static void spreadOverZones(ClusterLayout layout) {
    for (ShardSlot slot : layout.slots()) {
      if (!slot.movable) {
        continue;
      }
      for (String replica : new ArrayList<>(slot.replicas)) {
        if (!layout.zoneUsedByOthers(slot, replica, layout.zone(replica))) {
          continue;
        }
        layout.targets().stream()
            .map(Broker::name)
            .filter(b -> layout.canReceive(slot, b))
            .filter(b -> !layout.zoneUsedByOthers(slot, replica, layout.zone(b)))
            .min(
                Comparator.<String>comparingInt(
                        b -> layout.regionUsedByOthers(slot, replica, layout.region(b)) ? 1 : 0)
                    .thenComparingInt(layout::replicasOn)
                    .thenComparing(b -> b))
            .ifPresent(to -> layout.moveReplica(slot, replica, to));
      }
    }
  }

  /**
   * Moves each replica that shares a region with another replica of its shard to a region the shard
   * does not use, without giving up a zone, and only to a broker below the average load: a region
   * with few brokers would otherwise receive a replica of every shard.
   */
  private static void spreadOverRegions(ClusterLayout layout) {
    int ceiling = ceilingAverage(layout);
    for (ShardSlot slot : layout.slots()) {
      if (!slot.movable) {
        continue;
      }
      for (String replica : new ArrayList<>(slot.replicas)) {
        if (!layout.regionUsedByOthers(slot, replica, layout.region(replica))) {
          continue;
        }
        layout.targets().stream()
            .map(Broker::name)
            .filter(b -> layout.replicasOn(b) < ceiling && layout.canReceive(slot, b))
            .filter(b -> !layout.regionUsedByOthers(slot, replica, layout.region(b)))
            .filter(b -> layout.keepsLocality(slot, replica, b))
            .min(Comparator.<String>comparingInt(layout::replicasOn).thenComparing(b -> b))
            .ifPresent(to -> layout.moveReplica(slot, replica, to));
      }
    }
  }

  private static int ceilingAverage(ClusterLayout layout) {
    int brokers = layout.targets().size();
    return (layout.totalReplicas() + brokers - 1) / brokers;
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
              .min(
                  Comparator.<String>comparingInt(
                          b -> layout.keepsLocality(slot, replica, b) ? 0 : 1)
                      .thenComparingInt(layout::replicasOn)
                      .thenComparing(b -> b))
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
   * with fewer moves. A move that keeps the shard's zones and regions is preferred; with {@code
   * localityFirst} it is the only kind allowed.
   */
  private static void evenReplicas(ClusterLayout layout, boolean localityFirst) {
    Set<String> stuck = new HashSet<>();
    List<String> targets = layout.targets().stream().map(Broker::name).toList();
    int floor = targets.stream().mapToInt(layout::replicasOn).sum() / targets.size();
    while (true) {
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
      if (!moveOne(layout, over, targets, floor, localityFirst)) {
        stuck.add(over);
      }
    }
  }

  /**
   * Moves one replica off {@code over} to a broker that can take one; false if none can.
   *
   * <p>Every receiver below {@code floor} (the average rounded down) is as good as any other for
   * the move count, and so is every receiver at it once none is below; a fuller one could end above
   * the average and cost a move more. Within that tier a receiver in {@code over}'s zone and region
   * comes first, as any shard can move there without losing a zone or region. A move that keeps the
   * shard's zones and regions is preferred; with {@code localityFirst} it is the only kind allowed.
   * When {@code over} also leads more than the receiver, a shard it leads goes first, so that
   * evening out replicas evens out leaderships too (a single-replica shard's leadership can move no
   * other way).
   */
  private static boolean moveOne(
      ClusterLayout layout, String over, List<String> targets, int floor, boolean localityFirst) {
    int overLoad = layout.replicasOn(over);
    String zone = layout.zone(over);
    String region = layout.region(over);
    List<String> receivers =
        targets.stream()
            .filter(b -> layout.hasRoom(b) && layout.replicasOn(b) + 1 < overLoad)
            .sorted(
                Comparator.<String>comparingInt(b -> layout.replicasOn(b) < floor ? 0 : 1)
                    .thenComparingInt(b -> layout.zone(b).equals(zone) ? 0 : 1)
                    .thenComparingInt(b -> layout.region(b).equals(region) ? 0 : 1)
                    .thenComparingInt(layout::replicasOn)
                    .thenComparing(b -> b))
            .toList();
    for (String to : receivers) {
      boolean preferLed = layout.leadersOn(over) > layout.leadersOn(to) + 1;
      ShardSlot fallback = null;
      for (boolean led : new boolean[] {preferLed, !preferLed}) {
        for (ShardSlot slot : layout.slotsOn(over)) {
          if (slot.leader.equals(over) != led || !fits(layout, slot, over, to, false)) {
            continue;
          }
          if (layout.keepsLocality(slot, over, to)) {
            layout.moveReplica(slot, over, to);
            return true;
          }
          if (fallback == null) {
            fallback = slot;
          }
        }
      }
      if (fallback != null && !localityFirst) {
        layout.moveReplica(fallback, over, to);
        return true;
      }
    }
    return false;
  }

  private static boolean fits(
      ClusterLayout layout, ShardSlot slot, String from, String to, boolean keepLocality) {
    return slot.movable
        && !slot.hasReplicaOn(to)
        && (!keepLocality || layout.keepsLocality(slot, from, to));
  }

  /**
   * Lowers the broker leading most, one leadership at a time, until every active broker leads
   * within one of every other: by handing leaderships along a chain of shared shards (no data
   * moves), or, with {@code allowSwaps}, by swapping a single-replica shard for one it does not
   * lead.
   */
  private static void evenLeaders(ClusterLayout layout, boolean allowSwaps, boolean localityFirst) {
    Set<String> stuck = new HashSet<>();
    List<String> targets = layout.targets().stream().map(Broker::name).toList();
    while (true) {
      String over =
          targets.stream()
              .filter(b -> !stuck.contains(b))
              .max(Comparator.<String>comparingInt(layout::leadersOn))
              .orElse(null);
      int min = targets.stream().mapToInt(layout::leadersOn).min().orElse(0);
      if (over == null || layout.leadersOn(over) - min <= 1) {
        return;
      }
      if (!handOverAlongPath(layout, over)
          && !(allowSwaps && swapSoleReplica(layout, over, localityFirst))) {
        stuck.add(over);
      }
    }
  }

  private static boolean handOverAlongPath(ClusterLayout layout, String over) {
    List<String> path = layout.leadershipPath(over, layout.leadersOn(over) - 2);
    for (int i = 1; i < path.size(); i++) {
      String from = path.get(i - 1);
      String to = path.get(i);
      layout.transferLeadership(layout.ledShardSharedWith(from, to), to);
    }
    return !path.isEmpty();
  }

  /**
   * A shard with one replica can change leader only by moving. Moves one such shard led by {@code
   * over} to the broker leading least, and a shard {@code over} does not lead back, so replica
   * counts stay as they were.
   */
  private static boolean swapSoleReplica(ClusterLayout layout, String over, boolean localityFirst) {
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
              .filter(s -> !s.leader.equals(to) && fits(layout, s, to, over, localityFirst))
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
