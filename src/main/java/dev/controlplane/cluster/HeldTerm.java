package dev.controlplane.cluster;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.logging.Logger;

/**
 * The fencing term this node holds, and for how long it may count itself leader with it: while its
 * monitor last saw it lead with a majority in touch within the failure timeout, and its last lease
 * renewal began less than a lease ago (RaftLeadership explains the lease). A term given up is kept
 * aside until the monitor releases its lease in the database.
 */
final class HeldTerm {

  private static final Logger LOG = Logger.getLogger(HeldTerm.class.getName());

  private final String nodeId;
  private final long failureTimeoutNanos;
  private final long leaseNanos;
  private final Object lock = new Object();
  private final AtomicLong givenUp = new AtomicLong();

  private volatile long term;
  private volatile long claimedRaftTerm;

  /** When the monitor last saw this node lead with a majority in touch (System.nanoTime). */
  private volatile long confirmedAtNanos;

  /** When the last claim or renewal that succeeded was sent (System.nanoTime). */
  private volatile long leaseStartNanos;

  HeldTerm(String nodeId, Duration failureTimeout, Duration lease) {
    this.nodeId = nodeId;
    this.failureTimeoutNanos = failureTimeout.toNanos();
    this.leaseNanos = lease.toNanos();
  }

  /** The term held, whether or not its lease is current; 0 when none. */
  long held() {
    return term;
  }

  /** Whether Raft term {@code raftTerm} still needs its claim in the database. */
  boolean needsClaim(long raftTerm) {
    return term == 0 || claimedRaftTerm != raftTerm;
  }

  /**
   * Takes {@code won}, claimed for {@code raftTerm} by a statement sent at {@code sentNanos}, if
   * {@code stillLeading} holds: checked under the lock {@link #stepDown} takes, so a step-down
   * while the claim was under way is never overwritten.
   */
  boolean take(long won, long raftTerm, long sentNanos, BooleanSupplier stillLeading) {
    synchronized (lock) {
      if (!stillLeading.getAsBoolean()) {
        return false;
      }
      claimedRaftTerm = raftTerm;
      leaseStartNanos = sentNanos;
      term = won;
      return true;
    }
  }

  /** A renewal sent at {@code sentNanos} succeeded. */
  void renewed(long sentNanos) {
    leaseStartNanos = sentNanos;
  }

  /** The monitor saw this node lead with a majority in touch just now. */
  void confirmed() {
    confirmedAtNanos = System.nanoTime();
  }

  /**
   * Whether this node leads now. Until the first monitor tick after a pause has run, a node that
   * was paused does not call itself leader (readiness, writes).
   */
  boolean leadsNow() {
    long now = System.nanoTime();
    return term > 0
        && now - confirmedAtNanos <= failureTimeoutNanos
        && now - leaseStartNanos < leaseNanos;
  }

  void stepDown(String reason) {
    synchronized (lock) {
      if (term != 0) {
        LOG.info("node " + nodeId + " no longer leads (term " + term + "): " + reason);
        givenUp.set(term);
        term = 0;
      }
    }
  }

  /**
   * The term last given up whose lease is not released yet, 0 when none; the caller releases it.
   */
  long takeGivenUp() {
    return givenUp.getAndSet(0);
  }
}
