package dev.controlplane.cluster;

import java.time.Duration;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jgroups.View;
import org.jgroups.protocols.raft.RAFT;
import org.jgroups.protocols.raft.election.BaseElection;
import org.jgroups.raft.RaftHandle;

/**
 * Makes sure every member of a majority view learns who leads, whatever the start order, merge or
 * restart that brought it there.
 *
 * <p>jgroups-raft tells a member who leads in two ways only: a one-shot {@code LeaderElected}
 * message when a view changes, and AppendEntries. The one-shot message is dropped by a member that
 * has not installed the merged view yet when it arrives, and a leader sends AppendEntries only to a
 * member whose log lacks entries the leader has. The service keeps its state in PostgreSQL and
 * appended nothing to the Raft log, so a member merged in late never heard from the leader again
 * and stayed a candidate forever while the others had a leader.
 *
 * <p>Two measures, both run from the leadership monitor:
 *
 * <ul>
 *   <li>A node that starts leading a Raft term appends one no-op entry (as Raft's own design does
 *       at the start of every term). From then on the leader's log is never empty, so its commit
 *       table resends the last entry every {@code resend_interval} to every member that has not
 *       acknowledged it, including every member that joins or merges later; each AppendEntries
 *       names the leader and its term.
 *   <li>A watchdog: a node that sees a majority view with no leader for longer than the failure
 *       timeout, and coordinates that view, starts a voting round itself (pre-vote had decided
 *       there was nothing to do). It should never fire; it logs a warning when it does.
 * </ul>
 *
 * <p>Thread safety: only the monitor thread calls {@link #tick(long)}.
 */
final class LeaderPropagation {

  private static final Logger LOG = Logger.getLogger(LeaderPropagation.class.getName());
  private static final byte[] NO_OP = {0};

  private final String nodeId;
  private final RaftHandle raft;
  private final long leaderlessLimitMillis;

  private long announcedTerm = -1;
  private long leaderlessSince = -1;

  LeaderPropagation(String nodeId, RaftHandle raft, Duration failureTimeout) {
    this.nodeId = nodeId;
    this.raft = raft;
    this.leaderlessLimitMillis = failureTimeout.toMillis();
  }

  void tick(long nowMillis) {
    RAFT protocol = raft.raft();
    if (protocol.isLeader()) {
      leaderlessSince = -1;
      announce(protocol.currentTerm());
      return;
    }
    View view = raft.channel().getView();
    if (view == null || view.size() < protocol.majority() || leaderIn(view, protocol)) {
      leaderlessSince = -1;
      return;
    }
    if (leaderlessSince < 0) {
      leaderlessSince = nowMillis;
    } else if (nowMillis - leaderlessSince >= leaderlessLimitMillis) {
      leaderlessSince = nowMillis;
      restartElection(view);
    }
  }

  /** A leader is known and still a member of the view (else it is as good as none). */
  private static boolean leaderIn(View view, RAFT protocol) {
    return protocol.leader() != null && view.containsMember(protocol.leader());
  }

  private void announce(long raftTerm) {
    if (announcedTerm == raftTerm) {
      return;
    }
    announcedTerm = raftTerm;
    try {
      raft.setAsync(NO_OP, 0, NO_OP.length)
          .whenComplete(
              (ignored, failure) -> {
                if (failure != null) {
                  LOG.fine(
                      "node " + nodeId + ": no-op of Raft term " + raftTerm + " not committed");
                }
              });
    } catch (Exception e) {
      // Not the leader any more: the next leader appends its own.
      LOG.log(Level.FINE, "node " + nodeId + ": no-op of Raft term " + raftTerm + " not sent", e);
    }
  }

  private void restartElection(View view) {
    if (!view.getCoord().equals(raft.channel().getAddress())) {
      LOG.warning(
          "node "
              + nodeId
              + " has known no leader for "
              + leaderlessLimitMillis
              + " ms in the majority view "
              + view
              + "; its coordinator should start an election");
      return;
    }
    BaseElection election = raft.channel().getProtocolStack().findProtocol(BaseElection.class);
    LOG.warning(
        "node "
            + nodeId
            + " coordinates the majority view "
            + view
            + " but no leader has been known for "
            + leaderlessLimitMillis
            + " ms; starting a voting round");
    election.runVotingThread();
  }
}
