package dev.controlplane.cluster;

import jakarta.enterprise.concurrent.ManagedThreadFactory;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Periodic work that only the leader may do (failure detection, retention trimming, purges). Every
 * node schedules each duty, and each run is skipped unless this node holds a term at that moment;
 * the write it makes is fenced anyway, so a stale leader's run fails instead of acting twice.
 */
public final class LeaderDuties {

  private static final Logger LOG = Logger.getLogger(LeaderDuties.class.getName());

  private final Leadership leadership;
  private final ScheduledExecutorService scheduler;

  public LeaderDuties(Leadership leadership, ManagedThreadFactory threads) {
    this.leadership = leadership;
    this.scheduler = Executors.newScheduledThreadPool(1, threads);
  }

  public void every(Duration period, String name, Runnable duty) {
    long millis = Math.max(50, period.toMillis());
    scheduler.scheduleWithFixedDelay(
        () -> runIfLeader(name, duty), millis, millis, TimeUnit.MILLISECONDS);
  }

  private void runIfLeader(String name, Runnable duty) {
    if (leadership.term().isEmpty()) {
      return;
    }
    try {
      duty.run();
    } catch (RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "leader duty '" + name + "' failed; it runs again next period: " + e.getMessage());
    }
  }

  public void stop() {
    scheduler.shutdownNow();
  }
}
