package dev.controlplane.cluster;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.LeaderHint;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Refuses writes on a node that does not lead, naming the leader when one is known, and counts the
 * refusals. The term it hands out is still only a claim: the write pipeline's batch transaction
 * checks it against the recorded one under the row lock ({@code write.BatchTransaction}).
 */
@ApplicationScoped
public class WriteGuard {

  @Inject Leadership leadership;
  @Inject ClusterMetrics metrics;

  /** This node's term; fails with NOT_LEADER when it does not lead. */
  public long currentTerm() {
    return leadership.term().orElseThrow(() -> refuse(notLeaderMessage(), knownLeader()));
  }

  /** Fails with NOT_LEADER unless this node believes it leads (writes outside the change log). */
  public void requireLeader() {
    currentTerm();
  }

  /** The refusal of a write whose term is no longer the recorded one. */
  public ControlPlaneException stale(long term, long recorded, LeaderHint recordedLeader) {
    return refuse(
        "leadership term "
            + term
            + " is no longer current (current term "
            + recorded
            + "); nothing was written; retry on the leader",
        recordedLeader);
  }

  private String notLeaderMessage() {
    return otherLeader()
        .map(id -> "this node is not the leader; the leader is " + id + "; nothing was written")
        .orElse(
            "no leader is known (an election is in progress or there is no quorum); nothing was"
                + " written; retry shortly");
  }

  /**
   * The leader to send the client to: only another node. A node that Raft still names as leader but
   * that holds no term (it lost touch with the majority, or has not recorded its term yet) must not
   * send the client back to itself.
   */
  private java.util.Optional<String> otherLeader() {
    return leadership.role() == Leadership.Role.FOLLOWER
        ? leadership.leaderId()
        : java.util.Optional.empty();
  }

  private LeaderHint knownLeader() {
    return otherLeader()
        .map(
            id ->
                new LeaderHint(
                    id,
                    leadership.leaderHttpAddress().orElse(null),
                    leadership.leaderGrpcAddress().orElse(null)))
        .orElse(null);
  }

  private ControlPlaneException refuse(String message, LeaderHint leader) {
    metrics.writeRejected();
    return ControlPlaneException.notLeader(message, leader);
  }
}
