package dev.controlplane.broker.rebalance;

import dev.controlplane.metadata.model.Broker;
import dev.controlplane.metadata.model.ShardPlacement;
import dev.controlplane.metadata.model.ShardPlacement.ShardAssignment;
import dev.controlplane.metadata.model.StreamRef;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Every shard's placement and every broker's load while a plan is being made. Moves are applied
 * here as they are planned, so each decision sees the effect of the previous ones; the list of
 * applied moves is the plan.
 *
 * <p>Besides the counts it keeps, for every pair of brokers, how many movable shards the first
 * leads while the second holds a replica: the edges along which leadership can be handed over
 * without moving data, searched by {@link #leadershipPath}.
 */
final class ClusterLayout {

  private final Map<String, Broker> brokers = new LinkedHashMap<>();
  private final List<Broker> targets;
  private final Map<String, Set<ShardSlot>> slotsByBroker = new HashMap<>();
  private final Map<String, Integer> leaders = new HashMap<>();
  private final List<ShardSlot> slots = new ArrayList<>();
  private final Map<String, Integer> index = new HashMap<>();
  private final List<String> names = new ArrayList<>();
  private final int[][] leadEdges;

  ClusterLayout(
      Collection<Broker> allBrokers,
      Collection<ShardPlacement> placements,
      Predicate<ShardPlacement> inScope) {
    allBrokers.forEach(b -> brokers.put(b.name(), b));
    targets = brokers.values().stream().filter(b -> b.status() == Broker.Status.ACTIVE).toList();
    brokers.keySet().forEach(this::indexOf);
    for (ShardPlacement p : placements) {
      boolean movable = inScope.test(p);
      for (ShardAssignment a : p.placements()) {
        ShardSlot slot = new ShardSlot(p.ref(), a.shardId(), a.leader(), a.replicas(), movable);
        slots.add(slot);
        slot.replicas.forEach(r -> slotSet(r).add(slot));
        leaders.merge(slot.leader, 1, Integer::sum);
        slot.replicas.forEach(this::indexOf);
        indexOf(slot.leader);
      }
    }
    leadEdges = new int[names.size()][names.size()];
    slots.forEach(s -> countEdges(s, 1));
  }

  private int indexOf(String broker) {
    return index.computeIfAbsent(
        broker,
        b -> {
          names.add(b);
          return names.size() - 1;
        });
  }

  List<ShardSlot> slots() {
    return slots;
  }

  /** The net moves of every shard, in shard order. */
  List<PlannedMove> moves() {
    List<PlannedMove> out = new ArrayList<>();
    slots.forEach(s -> out.addAll(s.netMoves()));
    return out;
  }

  /** Brokers that may receive shards: active ones. Statuses do not change while planning. */
  List<Broker> targets() {
    return targets;
  }

  /** Brokers that must be emptied: draining and down ones, and names no longer registered. */
  Set<String> evacuated() {
    Set<String> out = new HashSet<>(slotsByBroker.keySet());
    targets.forEach(b -> out.remove(b.name()));
    return out;
  }

  Broker broker(String name) {
    return brokers.get(name);
  }

  boolean isActive(String name) {
    Broker b = brokers.get(name);
    return b != null && b.status() == Broker.Status.ACTIVE;
  }

  int replicasOn(String broker) {
    return slotsOn(broker).size();
  }

  int leadersOn(String broker) {
    return leaders.getOrDefault(broker, 0);
  }

  Collection<ShardSlot> slotsOn(String broker) {
    return slotsByBroker.getOrDefault(broker, Set.of());
  }

  private Set<ShardSlot> slotSet(String broker) {
    return slotsByBroker.computeIfAbsent(broker, k -> new LinkedHashSet<>());
  }

  int totalReplicas() {
    return slots.stream().mapToInt(s -> s.replicas.size()).sum();
  }

  boolean hasRoom(String broker) {
    Integer max = brokers.get(broker).capacity().maxShards();
    return max == null || replicasOn(broker) < max;
  }

  /**
   * Whether {@code to} may take a replica of {@code slot}: active, room, not already holding it.
   */
  boolean canReceive(ShardSlot slot, String to) {
    return isActive(to) && !slot.hasReplicaOn(to) && hasRoom(to);
  }

  void moveReplica(ShardSlot slot, String from, String to) {
    countEdges(slot, -1);
    slot.replicas.set(slot.replicas.indexOf(from), to);
    slotSet(from).remove(slot);
    slotSet(to).add(slot);
    if (slot.leader.equals(from)) {
      // The leadership goes with the replica's data; leader balancing may move it on later.
      slot.leader = to;
      leaders.merge(from, -1, Integer::sum);
      leaders.merge(to, 1, Integer::sum);
    }
    countEdges(slot, 1);
  }

  void transferLeadership(ShardSlot slot, String to) {
    String from = slot.leader;
    if (from.equals(to)) {
      return;
    }
    countEdges(slot, -1);
    slot.leader = to;
    leaders.merge(from, -1, Integer::sum);
    leaders.merge(to, 1, Integer::sum);
    countEdges(slot, 1);
  }

  private void countEdges(ShardSlot slot, int delta) {
    if (!slot.movable) {
      return;
    }
    int from = indexOf(slot.leader);
    for (String r : slot.replicas) {
      if (!r.equals(slot.leader)) {
        leadEdges[from][indexOf(r)] += delta;
      }
    }
  }

  /**
   * The shortest chain of brokers {@code from → b1 → … → bn} in which each leads a movable shard
   * that the next holds a replica of, ending on an active broker leading at most {@code maxLeaders}
   * (of the nearest such brokers, the one leading least); empty if there is none. Handing one
   * leadership along every link lowers {@code from} by one and raises only the last broker, even
   * when no replica of {@code from}'s shards is on a lightly loaded broker.
   */
  List<String> leadershipPath(String from, int maxLeaders) {
    int n = names.size();
    int[] previous = new int[n];
    Arrays.fill(previous, -1);
    int start = index.get(from);
    previous[start] = start;
    List<Integer> layer = List.of(start);
    while (!layer.isEmpty()) {
      List<Integer> next = new ArrayList<>();
      int best = -1;
      for (int a : layer) {
        for (int b = 0; b < n; b++) {
          if (previous[b] >= 0 || leadEdges[a][b] == 0 || !isActive(names.get(b))) {
            continue;
          }
          previous[b] = a;
          next.add(b);
          int leads = leadersOn(names.get(b));
          if (leads <= maxLeaders && (best < 0 || leads < leadersOn(names.get(best)))) {
            best = b;
          }
        }
      }
      if (best >= 0) {
        List<String> path = new ArrayList<>();
        for (int at = best; at != start; at = previous[at]) {
          path.add(0, names.get(at));
        }
        path.add(0, from);
        return path;
      }
      layer = next;
    }
    return List.of();
  }

  /** A movable shard led by {@code leader} with a replica on {@code replica}, or null. */
  ShardSlot ledShardSharedWith(String leader, String replica) {
    for (ShardSlot s : slotsOn(leader)) {
      if (s.movable && s.leader.equals(leader) && s.hasReplicaOn(replica)) {
        return s;
      }
    }
    return null;
  }

  String zone(String broker) {
    Broker b = brokers.get(broker);
    return b == null ? "" : b.availabilityZone();
  }

  String region(String broker) {
    Broker b = brokers.get(broker);
    return b == null ? "" : b.region();
  }

  /** Whether another replica of {@code slot} than {@code except} is in {@code zone}. */
  boolean zoneUsedByOthers(ShardSlot slot, String except, String zone) {
    for (String r : slot.replicas) {
      if (!r.equals(except) && zone(r).equals(zone)) {
        return true;
      }
    }
    return false;
  }

  /** Whether another replica of {@code slot} than {@code except} is in {@code region}. */
  boolean regionUsedByOthers(ShardSlot slot, String except, String region) {
    for (String r : slot.replicas) {
      if (!r.equals(except) && region(r).equals(region)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether moving {@code slot}'s replica from {@code from} to {@code to} keeps the shard in as
   * many zones and as many regions as before.
   */
  boolean keepsLocality(ShardSlot slot, String from, String to) {
    String zone = zone(to);
    String region = region(to);
    return (zone.equals(zone(from)) || !zoneUsedByOthers(slot, from, zone))
        && (region.equals(region(from)) || !regionUsedByOthers(slot, from, region));
  }

  /** The placement of every slot of one stream after the planned moves. */
  Map<StreamRef, List<ShardAssignment>> placementsAfter() {
    Map<StreamRef, List<ShardAssignment>> out = new LinkedHashMap<>();
    for (ShardSlot s : slots) {
      List<String> replicas = new ArrayList<>();
      replicas.add(s.leader);
      s.replicas.stream().filter(r -> !r.equals(s.leader)).forEach(replicas::add);
      out.computeIfAbsent(s.stream, k -> new ArrayList<>())
          .add(new ShardAssignment(s.shardId, s.leader, replicas));
    }
    return out;
  }
}
