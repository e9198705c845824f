package dev.controlplane.write;

import dev.controlplane.error.LeaderHint;

/**
 * The batch's fencing check failed: {@code cluster_state} records another term (this node was
 * deposed), or the same term at another version than this node's state (its state is stale).
 */
final class Fenced extends Exception {

  final long recordedTerm;
  final long recordedVersion;
  final LeaderHint leader;

  Fenced(long recordedTerm, long recordedVersion, LeaderHint leader) {
    super("fencing check failed", null, false, false);
    this.recordedTerm = recordedTerm;
    this.recordedVersion = recordedVersion;
    this.leader = leader;
  }
}
