package dev.controlplane.broker.rebalance;

import dev.controlplane.metadata.model.Broker;
import dev.controlplane.metadata.model.ShardPlacement;
import dev.controlplane.metadata.model.ShardPlacement.ShardAssignment;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Every shard's placement and every broker's load while a plan is being made. Moves are applied
 * here as they are planned, so each decision sees the effect of the previous ones; the list of
 * applied moves is the plan.
 */
final class ClusterLayout {

  private final Map<String, Broker> brokers = new LinkedHashMap<>();
  private final Map<String, List<ShardSlot>> slotsByBroker = new HashMap<>();
  private final Map<String, Integer> leaders = new HashMap<>();
  private final List<ShardSlot> slots = new ArrayList<>();

  ClusterLayout(
      Collection<Broker> allBrokers,
      Collection<ShardPlacement> placements,
      Predicate<ShardPlacement> inScope) {
    allBrokers.forEach(b -> brokers.put(b.name(), b));
    for (ShardPlacement p : placements) {
      boolean movable = inScope.test(p);
      for (ShardAssignment a : p.placements()) {
        ShardSlot slot = new ShardSlot(p.ref(), a.shardId(), a.leader(), a.replicas(), movable);
        slots.add(slot);
        slot.replicas.forEach(
            r -> slotsByBroker.computeIfAbsent(r, k -> new ArrayList<>()).add(slot));
        leaders.merge(slot.leader, 1, Integer::sum);
      }
    }
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

  /** Brokers that may receive shards: active ones. */
  List<Broker> targets() {
    return brokers.values().stream().filter(b -> b.status() == Broker.Status.ACTIVE).toList();
  }

  /** Brokers that must be emptied: draining and down ones, and names no longer registered. */
  Set<String> evacuated() {
    Set<String> out = new HashSet<>(slotsByBroker.keySet());
    targets().forEach(b -> out.remove(b.name()));
    return out;
  }

  Broker broker(String name) {
    return brokers.get(name);
  }

  int replicasOn(String broker) {
    return slotsByBroker.getOrDefault(broker, List.of()).size();
  }

  int leadersOn(String broker) {
    return leaders.getOrDefault(broker, 0);
  }

  List<ShardSlot> slotsOn(String broker) {
    return slotsByBroker.getOrDefault(broker, List.of());
  }

  int totalReplicas() {
    return slots.stream().mapToInt(s -> s.replicas.size()).sum();
  }

  boolean hasRoom(String broker) {
    Integer max = brokers.get(broker).capacity().maxShards();
    return max == null || replicasOn(broker) < max;
  }

  /**
   * Whether {@code to} may take {@code slot}'s replica from {@code from} (active, room, not already
   * holding it).
   */
  boolean canReceive(ShardSlot slot, String to) {
    Broker b = brokers.get(to);
    return b != null && b.status() == Broker.Status.ACTIVE && !slot.hasReplicaOn(to) && hasRoom(to);
  }

  void moveReplica(ShardSlot slot, String from, String to) {
    slot.replicas.set(slot.replicas.indexOf(from), to);
    slotsByBroker.get(from).remove(slot);
    slotsByBroker.computeIfAbsent(to, k -> new ArrayList<>()).add(slot);
    if (slot.leader.equals(from)) {
      // The leadership goes with the replica's data; leader balancing may move it on later.
      slot.leader = to;
      leaders.merge(from, -1, Integer::sum);
      leaders.merge(to, 1, Integer::sum);
    }
  }

  void transferLeadership(ShardSlot slot, String to) {
    String from = slot.leader;
    if (from.equals(to)) {
      return;
    }
    slot.leader = to;
    leaders.merge(from, -1, Integer::sum);
    leaders.merge(to, 1, Integer::sum);
  }

  /** Zones (or regions) of the other replicas of a slot, to keep a shard's copies apart. */
  Set<String> zonesOfOthers(ShardSlot slot, String except, boolean regions) {
    Set<String> out = new HashSet<>();
    for (String r : slot.replicas) {
      Broker b = brokers.get(r);
      if (!r.equals(except) && b != null) {
        out.add(regions ? b.region() : b.availabilityZone());
      }
    }
    return out;
  }

  /** The placement of every slot of one stream after the planned moves. */
  Map<dev.controlplane.metadata.model.StreamRef, List<ShardAssignment>> placementsAfter() {
    Map<dev.controlplane.metadata.model.StreamRef, List<ShardAssignment>> out =
        new LinkedHashMap<>();
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
