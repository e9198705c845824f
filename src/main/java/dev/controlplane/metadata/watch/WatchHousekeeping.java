package dev.controlplane.metadata.watch;

import dev.controlplane.config.ControlPlaneConfig;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The hub's periodic checks of its watchers, run on its ticker: progress notices for idle watchers
 * and the cut-off of stalled ones. Kept apart from the hub so that a test can run a check at the
 * moment it chooses, against watchers in the state it set up.
 */
final class WatchHousekeeping {

  private static final Logger LOG = Logger.getLogger(WatchHousekeeping.class.getName());

  private final WatchHub hub;
  private final ControlPlaneConfig config;
  private final WatchMetrics metrics;

  WatchHousekeeping(WatchHub hub, ControlPlaneConfig config, WatchMetrics metrics) {
    this.hub = hub;
    this.config = config;
    this.metrics = metrics;
  }

  void schedule(ScheduledExecutorService ticker) {
    long tick = Math.max(100, config.watchProgressInterval().toMillis() / 4);
    ticker.scheduleWithFixedDelay(
        safely(this::requestProgressFromIdle), tick, tick, TimeUnit.MILLISECONDS);
    ticker.scheduleWithFixedDelay(safely(this::cutOffStalled), 100, 100, TimeUnit.MILLISECONDS);
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
