package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.cache.TenantCache;
import dev.controlplane.cache.TenantChanges;
import dev.controlplane.it.support.TestDatabase;
import dev.controlplane.metadata.log.ChangeLog;
import dev.controlplane.metadata.log.CommitSignal;
import dev.controlplane.metadata.watch.ChangeNotificationListener;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The change listener against a real PostgreSQL: a follower hears every commit notification, the
 * leader hears none of its own (its pipeline feeds its watchers directly), a node that stops
 * leading listens again and reads the log once for what it missed, and tenant-change notifications
 * reach every node whatever its role. A database of its own, where nothing else sends
 * notifications.
 */
class ChangeNotificationListenerIT {

  private static final String URL = TestDatabase.url(TestDatabase.name() + "_empty");

  private final BlockingQueue<String> signals = new LinkedBlockingQueue<>();
  private final AtomicBoolean leads = new AtomicBoolean();
  private final AtomicInteger loads = new AtomicInteger();
  private final TenantChanges tenants = new TenantChanges();
  private final TenantCache<Integer> cache = tenants.cache(tenant -> loads.incrementAndGet());
  private ChangeNotificationListener listener;

  @BeforeEach
  void start() {
    CommitSignal signal =
        new CommitSignal() {
          @Override
          public void committed() {
            signals.add("read the log");
          }

          @Override
          public void committedUpTo(long version) {
            signals.add("up to " + version);
          }
        };
    listener =
        new ChangeNotificationListener(
            () -> DriverManager.getConnection(URL, TestDatabase.USER, TestDatabase.PASSWORD),
            signal,
            tenants,
            leads::get);
  }

  @AfterEach
  void stop() {
    listener.stop();
  }

  @Test
  void aFollowerHearsCommitsTheLeaderDoesNotAndAStepDownReadsTheLogOnce() throws Exception {
    listener.start(Thread::new);
    assertThat(next()).as("a new connection reads the log once").isEqualTo("read the log");
    assertThat(listener.listeningToCommits()).isTrue();

    notify(ChangeLog.CHANNEL, "101");
    assertThat(next()).isEqualTo("up to 101");

    leads.set(true);
    awaitListening(false);
    notify(ChangeLog.CHANNEL, "102");

    leads.set(false);
    awaitListening(true);
    assertThat(next()).as("after leading, the log is read once").isEqualTo("read the log");
    notify(ChangeLog.CHANNEL, "103");
    assertThat(next())
        .as("the commit notified while leading (102) was never heard")
        .isEqualTo("up to 103");
    assertThat(signals.poll(300, TimeUnit.MILLISECONDS)).isNull();
  }

  @Test
  void theLeaderStillHearsTenantChanges() throws Exception {
    leads.set(true);
    listener.start(Thread::new);
    assertThat(next()).isEqualTo("read the log");
    assertThat(listener.listeningToCommits()).isFalse();
    int loaded = cache.get("t1");

    notify(TenantChanges.CHANNEL, "t1");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (cache.get("t1") == loaded && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(cache.get("t1")).as("t1 loaded again after its notification").isGreaterThan(loaded);
    notify(ChangeLog.CHANNEL, "104");
    assertThat(signals.poll(500, TimeUnit.MILLISECONDS)).isNull();
  }

  private String next() throws InterruptedException {
    String s = signals.poll(5, TimeUnit.SECONDS);
    assertThat(s).as("a signal within 5 s").isNotNull();
    return s;
  }

  private void awaitListening(boolean wanted) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (listener.listeningToCommits() != wanted && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(listener.listeningToCommits()).isEqualTo(wanted);
  }

  private static void notify(String channel, String payload) throws SQLException {
    try (Connection c = DriverManager.getConnection(URL, TestDatabase.USER, TestDatabase.PASSWORD);
        PreparedStatement s = c.prepareStatement("SELECT pg_notify(?, ?)")) {
      s.setString(1, channel);
      s.setString(2, payload);
      s.execute();
    }
  }
}
