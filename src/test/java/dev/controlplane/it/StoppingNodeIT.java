package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.IsolatedServer;
import dev.controlplane.it.support.Metrics;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.TestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A node told to stop (SIGTERM, as an orchestrator does) while its write pipeline waits for the
 * database: here for the {@code cluster_state} row another transaction holds. The node cancels the
 * batch after a moment, tells its writer nothing was written, and stops, with nothing of the batch
 * stored even once the lock goes.
 */
class StoppingNodeIT {

  private static final String NODE_DB = IsolatedServer.database("trust");

  @Test
  void aNodeStoppedWhileABatchWaitsForTheDatabaseCancelsItAnswersItsWriterAndStopsPromptly()
      throws Exception {
    // The leader's own periodic writes would join the pipeline too; one caught by the lock would
    // be the batch in flight and leave the test's write queued behind it.
    IsolatedServer node =
        IsolatedServer.start(
            "stopping",
            Map.of(
                "SERVICE_CONTROLPLANE_KEY_ROTATION_CHECK_INTERVAL", "1h",
                "SERVICE_CONTROLPLANE_RETENTION_CHECK_INTERVAL", "1h",
                "SERVICE_CONTROLPLANE_STREAM_PURGE_INTERVAL", "1h"));
    try (Connection blocker = connect()) {
      Http http = new Http(node.httpPort(), SharedServer.OPERATOR_TOKEN);
      assertThat(http.put("/v1/tenants/before", Http.tenant("before", "stored")).status())
          .isEqualTo(201);
      blocker.setAutoCommit(false);
      try (Statement st = blocker.createStatement()) {
        st.execute("SELECT * FROM cluster_state WHERE id = 1 FOR UPDATE");
      }
      Http metrics = new Http(node.httpPort(), null);
      double taken = writesTaken(metrics);
      CompletableFuture<Http.Reply> write =
          CompletableFuture.supplyAsync(
              () -> http.put("/v1/tenants/during", Http.tenant("during", "not stored")));
      // In a batch (nothing else writes on this node), and that batch waits for the row.
      Metrics.await("the write taken into a batch", () -> writesTaken(metrics), n -> n > taken);
      awaitLockWaiters(blocker);

      long stopping = System.nanoTime();
      node.process().terminate();
      // Liberty waits up to 30 s for the HTTP requests in progress before it stops the
      // application; the write must not hold the node that long.
      node.process().awaitExit(Duration.ofSeconds(28));
      long stoppedMillis = (System.nanoTime() - stopping) / 1_000_000;
      System.out.printf("stopped %d ms after the signal, the lock still held%n", stoppedMillis);

      blocker.rollback();
      Http.Reply answer = write.get(30, TimeUnit.SECONDS);
      assertThat(answer.status()).as(answer.body()).isEqualTo(503);
      assertThat(answer.contentType()).startsWith("application/problem+json");
      assertThat(answer.body()).contains("nothing was written");
    } finally {
      node.close();
    }
    assertThat(tenants()).contains("before").doesNotContain("during");
    assertThat(node.process().logText())
        .doesNotContain("Exception in thread")
        .contains("after this node began to stop; canceling it");
  }

  private static double writesTaken(Http metrics) {
    return Metrics.valueIn(
        metrics.get("/metrics", "text/plain").body(),
        "controlplane_write_queue_wait_seconds_count",
        "");
  }

  /** Waits until a transaction of the node waits for the row the blocker holds. */
  private static void awaitLockWaiters(Connection blocker) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      try (Statement st = blocker.createStatement();
          ResultSet rs =
              st.executeQuery(
                  "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                      + " AND datname = current_database() AND pid <> pg_backend_pid()")) {
        rs.next();
        if (rs.getInt(1) > 0) {
          return;
        }
      }
      Thread.sleep(50);
    }
    throw new AssertionError("no write of the node waits for the locked cluster_state row");
  }

  private static java.util.List<String> tenants() throws Exception {
    try (Connection c = connect();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT name FROM tenants")) {
      java.util.List<String> names = new java.util.ArrayList<>();
      while (rs.next()) {
        names.add(rs.getString(1));
      }
      return names;
    }
  }

  private static Connection connect() throws Exception {
    return DriverManager.getConnection(NODE_DB, TestDatabase.USER, TestDatabase.PASSWORD);
  }
}
