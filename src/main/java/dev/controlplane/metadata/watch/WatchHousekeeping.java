package dev.controlplane.metadata.watch;

import dev.controlplane.config.ControlPlaneConfig;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The hub's periodic checks of its watchers, run on its ticker: progress notices for idle watchers,
 * the cut-off of stalled ones, and the end of all while the node cannot read the change log. Kept
 * apart from the hub so that a test can run a check at the moment it chooses, against watchers in
 * the state it set up.
 *
 * <h2>Slow watchers</h2>
 *
 * Nothing is queued per watcher: a watcher whose transport is not ready simply stops advancing, so
 * writers and other watchers never wait for it. One that refuses updates for longer than {@code
 * watch.stall.timeout} while updates wait for it is closed with RESOURCE_EXHAUSTED and resumes from
 * its last version. A watcher catching up from far behind is not slow as long as it keeps reading,
 * however long its reads of the log wait for a thread ({@link Watcher#blockedNanos()}).
 *
 * <h2>A log it cannot read</h2>
 *
 * While this node's reads of the change log fail (an entry a newer build wrote, its own database
 * connection lost while the leader writes), its head may be behind the log. A progress notice would
 * tell a watcher it is current, so none is sent. Once the reads have failed for longer than {@link
 * LogTailer#UNREADABLE_AFTER} new watches are refused, as readiness reports the node unready then,
 * and once they have failed for longer than {@link WatchHousekeeping#WATCHES_END_AFTER} every watch
 * is closed with UNAVAILABLE as on a stop, so that brokers resume on a node that reads the log.
 *
 * <h2>Withdrawn credentials</h2>
 *
 * A watch whose credentials are no longer accepted ({@link WatchSink#credentialsWithdrawn()}: a
 * broker certificate revoked, or expired, since the watch opened) is ended as unauthenticated at
 * the next progress tick.
 */
final class WatchHousekeeping {

  private static final Logger LOG = Logger.getLogger(WatchHousekeeping.class.getName());

  /**
   * How long the node's reads of the change log must have failed before its watches end. Longer
   * than a database restart or a quick failover, which the watches ride out without a gap (a
   * failover took 7 s in LostHistoryIT on 2 busy cores), yet short enough that a node that alone
   * cannot read the log sends its brokers elsewhere soon. Readiness goes DOWN, and new watches are
   * refused, after 5 s already ({@link LogTailer#UNREADABLE_AFTER}).
   */
  static final Duration WATCHES_END_AFTER = Duration.ofSeconds(15);

  private final WatchHub hub;
  private final ControlPlaneConfig config;
  private final WatchMetrics metrics;
  private final Duration watchesEndAfter;

  WatchHousekeeping(
      WatchHub hub, ControlPlaneConfig config, WatchMetrics metrics, Duration watchesEndAfter) {
    this.hub = hub;
    this.config = config;
    this.metrics = metrics;
    this.watchesEndAfter = watchesEndAfter;
  }

  void schedule(ScheduledExecutorService ticker) {
    long tick = Math.max(100, config.watchProgressInterval().toMillis() / 4);
    ticker.scheduleWithFixedDelay(
        safely(this::requestProgressFromIdle), tick, tick, TimeUnit.MILLISECONDS);
    ticker.scheduleWithFixedDelay(safely(hub::closeWithdrawn), tick, tick, TimeUnit.MILLISECONDS);
    ticker.scheduleWithFixedDelay(safely(this::cutOffStalled), 100, 100, TimeUnit.MILLISECONDS);
    ticker.scheduleWithFixedDelay(
        safely(this::closeIfLogUnreadable), 100, 100, TimeUnit.MILLISECONDS);
  }

  /**
   * Closes every watch once this node's reads of the change log have failed for longer than {@link
   * #watchesEndAfter}, as a stop does: its head may be behind the log, and a watch left open would
   * get neither what the log holds nor a notice that it is current. Every time, not once: a watch
   * opened just before the node refused new ones may register after a pass.
   */
  void closeIfLogUnreadable() {
    if (hub.logFailingFor().filter(failing -> failing.compareTo(watchesEndAfter) > 0).isPresent()) {
      hub.closeAll(WatchHub.LOG_UNREADABLE);
    }
  }

  void cutOffStalled() {
    long limit = config.watchStallTimeout().toNanos();
    hub.watchers()
        .filter(w -> w.blockedNanos() > limit)
        .forEach(
            w -> {
              metrics.cutOff();
              w.close(
                  new ControlPlaneException(
                      ErrorCode.RESOURCE_EXHAUSTED,
                      "watcher stopped reading while "
                          + (hub.head() - w.position())
                          + " updates waited; resume from version "
                          + w.position()));
            });
  }

  /** Runs every quarter interval; asking at 3/4 of it keeps every gap within the interval. */
  void requestProgressFromIdle() {
    long interval = config.watchProgressInterval().toNanos() * 3 / 4;
    hub.watchers()
        .filter(w -> w.position() >= hub.head() && w.nanosSinceLastSend() >= interval)
        .forEach(Watcher::requestProgress);
  }

  /**
   * A periodic task that survives its own failures (a scheduled executor drops a task that throws).
   */
  static Runnable safely(Runnable task) {
    return () -> {
      try {
        task.run();
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "watch housekeeping failed", e);
      }
    };
  }
}
