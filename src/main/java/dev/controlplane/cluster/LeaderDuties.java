package dev.controlplane.cluster;

import jakarta.enterprise.concurrent.ManagedThreadFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
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
  private final ManagedThreadFactory threads;
  private final List<ScheduledExecutorService> schedulers = new CopyOnWriteArrayList<>();

  public LeaderDuties(Leadership leadership, ManagedThreadFactory threads) {
    this.leadership = leadership;
    this.threads = threads;
  }

  /**
   * Each duty on a thread of its own: a long one (trimming a large backlog of the change log) must
   * not hold up another, above all failure detection, which counts a late check as a break.
   */
  public void every(Duration period, String name, Runnable duty) {
    long millis = Math.max(50, period.toMillis());
    ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(threads);
    schedulers.add(scheduler);
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
    schedulers.forEach(ScheduledExecutorService::shutdownNow);
  }
}
