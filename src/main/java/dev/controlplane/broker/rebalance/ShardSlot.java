package dev.controlplane.broker.rebalance;

import dev.controlplane.metadata.model.StreamRef;
import java.util.ArrayList;
import java.util.List;

/** One shard in a layout being planned: its leader and replicas change as moves are applied. */
final class ShardSlot {

  final StreamRef stream;
  final int shardId;
  final boolean movable;
  final String originalLeader;
  final List<String> originalReplicas;
  String leader;
  final List<String> replicas;

  ShardSlot(StreamRef stream, int shardId, String leader, List<String> replicas, boolean movable) {
    this.stream = stream;
    this.shardId = shardId;
    this.originalLeader = leader;
    this.originalReplicas = List.copyOf(replicas);
    this.leader = leader;
    this.replicas = new ArrayList<>(replicas);
    this.movable = movable;
  }

  /**
   * The net effect of everything planned for this shard: a replica that went A to B to C is one
   * move from A to C; a leadership that ends on a broker that already had a replica is a leadership
   * move.
   */
  List<PlannedMove> netMoves() {
    List<String> removed = new ArrayList<>(originalReplicas);
    removed.removeAll(replicas);
    List<String> added = new ArrayList<>(replicas);
    added.removeAll(originalReplicas);
    List<PlannedMove> out = new ArrayList<>();
    for (int i = 0; i < removed.size(); i++) {
      out.add(new PlannedMove(stream, shardId, removed.get(i), added.get(i), false));
    }
    if (!leader.equals(originalLeader) && originalReplicas.contains(leader)) {
      out.add(new PlannedMove(stream, shardId, originalLeader, leader, true));
    }
    return out;
  }

  boolean hasReplicaOn(String broker) {
    return replicas.contains(broker);
  }
}
