package dev.controlplane.broker;

import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * Since when the failure detector has watched the brokers without a break, on the database's clock
 * (heartbeats are stamped by it). A broker is judged only over that time: while this node did not
 * lead, or the database did not answer, brokers' heartbeats could not be recorded either, so their
 * silence then proves nothing. The watch starts again with a new term, and after any break longer
 * than one heartbeat interval between checks that succeeded (a shorter one costs a broker at most
 * one heartbeat, which the three-missed rule tolerates).
 *
 * <p>Confined to the detector's thread.
 */
final class WatchedSince {

  private static final Logger LOG = Logger.getLogger(WatchedSince.class.getName());

  private final long maxBreakNanos;
  private long term;
  private Instant since;
  private long lastCheckedNanos;

  WatchedSince(Duration heartbeatInterval) {
    this.maxBreakNanos = heartbeatInterval.toNanos();
  }

  /**
   * The start of the watch for a check beginning at {@code nowNanos} in {@code term}; {@code
   * databaseNow} is asked only when the watch starts (again).
   */
  Instant start(long term, long nowNanos, Supplier<Instant> databaseNow) {
    boolean sameTerm = since != null && term == this.term;
    long gap = nowNanos - lastCheckedNanos;
    if (!sameTerm || gap > maxBreakNanos) {
      since = databaseNow.get();
      this.term = term;
      if (sameTerm) {
        LOG.info(
            "broker failure detection could not run for "
                + gap / 1_000_000
                + " ms (the database did not answer, or this node did not lead, or the check"
                + " itself was slow); every broker's silence is counted from now");
      }
    }
    return since;
  }

  /** The check that began with {@link #start} succeeded; it ended at {@code nowNanos}. */
  void checked(long nowNanos) {
    lastCheckedNanos = nowNanos;
  }
}
