package dev.controlplane.cluster;

import java.sql.SQLException;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.logging.Logger;

/**
 * Claims the fencing term in {@code cluster_state} for a Raft term this node won, paced by the
 * leadership monitor's ticks: again soon while the previous holder's lease runs out, every {@link
 * #RETRY_MILLIS} while a leader of a later Raft term holds it or the database cannot be reached.
 * Each wait is logged once per Raft term.
 */
final class TermClaims {

  private static final Logger LOG = Logger.getLogger(TermClaims.class.getName());
  private static final long RETRY_MILLIS = 500;

  /** How old the holder's lease must be before a claim from an older Raft term is accepted. */
  static final Duration STALE_AFTER = Duration.ofSeconds(15);

  private final String nodeId;
  private final String httpUrl;
  private final String grpcAddress;
  private final TermStore terms;
  private final HeldTerm held;
  private final LeadershipEvents events;
  private final Duration lease;
  private final long tickMillis;

  private long nextClaimAt;
  private long refusedRaftTerm = -1;
  private long waitedRaftTerm = -1;

  TermClaims(
      ClusterSettings settings,
      TermStore terms,
      HeldTerm held,
      LeadershipEvents events,
      Duration lease,
      long tickMillis) {
    this.nodeId = settings.nodeId();
    this.httpUrl = settings.httpUrl();
    this.grpcAddress = settings.grpcAddress();
    this.terms = terms;
    this.held = held;
    this.events = events;
    this.lease = lease;
    this.tickMillis = tickMillis;
  }

  /**
   * Claims the term for {@code raftTerm} unless the last attempt asked to wait past {@code now}
   * (milliseconds). A won term is held only if {@code stillLeading} is true once the claim commits;
   * otherwise it is released at once for the next leader.
   *
   * @return whether this node now holds the term
   */
  boolean claimIfDue(long raftTerm, long now, BooleanSupplier stillLeading) {
    if (now < nextClaimAt) {
      return false;
    }
    try {
      long sent = System.nanoTime();
      TermStore.Claim claim =
          terms.claim(nodeId, raftTerm, httpUrl, grpcAddress, false, lease, STALE_AFTER);
      if (!claim.won()) {
        refused(raftTerm, claim, now);
        return false;
      }
      if (!held.take(claim.term(), raftTerm, sent, stillLeading)) {
        // Raft moved on while the claim was under way: let the next leader claim at once.
        terms.release(claim.term());
        return false;
      }
      events.termWon(claim.term());
      LOG.info(
          "node " + nodeId + " leads in term " + claim.term() + " (Raft term " + raftTerm + ")");
      return true;
    } catch (SQLException e) {
      nextClaimAt = now + RETRY_MILLIS;
      LOG.warning(
          "node "
              + nodeId
              + " won Raft term "
              + raftTerm
              + " but cannot record it yet: "
              + e.getMessage());
      return false;
    }
  }

  private void refused(long raftTerm, TermStore.Claim claim, long now) {
    if (claim.holderRaftTerm() <= raftTerm) {
      waitForLease(raftTerm, claim, now);
      return;
    }
    if (refusedRaftTerm != raftTerm) {
      refusedRaftTerm = raftTerm;
      LOG.warning(
          "node "
              + nodeId
              + " is Raft leader in Raft term "
              + raftTerm
              + " but a leader of a later Raft term holds"
              + " the fencing term; waiting to be deposed, or for that leader's lease to be "
              + STALE_AFTER
              + " old");
    }
    nextClaimAt = now + RETRY_MILLIS;
  }

  /**
   * The previous leader may still count itself leader until its lease runs out; it usually releases
   * the lease sooner, when it notices it lost its Raft role or its majority, so look again often.
   */
  private void waitForLease(long raftTerm, TermStore.Claim claim, long now) {
    if (waitedRaftTerm != raftTerm) {
      waitedRaftTerm = raftTerm;
      LOG.info(
          "node "
              + nodeId
              + " won Raft term "
              + raftTerm
              + "; waiting at most "
              + claim.leaseLeft().toMillis()
              + " ms for the lease of "
              + claim.holder()
              + " (Raft term "
              + claim.holderRaftTerm()
              + ") to be released or to run out");
    }
    nextClaimAt = now + Math.min(claim.leaseLeft().toMillis() + 1, 2 * tickMillis);
  }
}
