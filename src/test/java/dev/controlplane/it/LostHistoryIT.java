package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.it.support.Grpc;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.IsolatedServer;
import dev.controlplane.it.support.Metrics;
import dev.controlplane.it.support.PgPair;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.Snapshots;
import dev.controlplane.it.support.TestDatabase;
import dev.controlplane.it.support.WatchCollector;
import dev.controlplane.proto.v1.Tenant;
import io.grpc.Status;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A database that goes back in time never makes a broker apply new changes on top of lost ones. A
 * broker holds metadata up to some version and resumes its watch from there; if the database lost
 * that version and the control plane wrote on from its head, the same numbers would name other
 * changes and the broker would never know. Two real ways to lose versions: a failover to a standby
 * that had not received the last commits, under a running node (the leader starts a new history
 * itself, and the node ends the watches past the database's head), and an operator's restore from a
 * backup with the cluster stopped ({@code SELECT controlplane_start_new_history()}, the runbook's
 * step, docs/operations.md).
 */
class LostHistoryIT {

  /** The default skip of {@code controlplane_start_new_history} (migration V10). */
  private static final long SKIP = 1_000_000_000L;

  /**
   * The leader's own periodic writes off: one failing on the lost connection would have the leader
   * start the new history before the node notices the loss itself, which is what this test checks
   * (LeaderPipelineIT checks the leader's part alone).
   */
  private static final Map<String, String> WITHOUT_PERIODIC_WRITES =
      Map.of(
          "SERVICE_CONTROLPLANE_KEY_ROTATION_CHECK_INTERVAL", "1h",
          "SERVICE_CONTROLPLANE_RETENTION_CHECK_INTERVAL", "1h",
          "SERVICE_CONTROLPLANE_STREAM_PURGE_INTERVAL", "1h");

  @Test
  void aFailoverThatLosesCommitsUnderARunningNodeNeverGivesTheirVersionsToOtherChanges()
      throws Exception {
    try (PgPair db = PgPair.create(TestDatabase.name() + "_lost");
        IsolatedServer node =
            IsolatedServer.startOn("lost-history", db.serviceUrl(), WITHOUT_PERIODIC_WRITES);
        Grpc grpc = new Grpc(node.grpcPort(), SharedServer.BROKER_TOKEN)) {
      Http http = new Http(node.httpPort(), SharedServer.OPERATOR_TOKEN);
      long kept = createTenants(http, "kept");
      db.stopReplicating();
      long lost = createTenants(http, "lost");
      try (WatchCollector atHead = WatchCollector.open(grpc.metadataAsync(), lost);
          WatchCollector behind = WatchCollector.open(grpc.metadataAsync(), kept)) {
        assertThat(behind.awaitVersion(lost, Duration.ofSeconds(10))).isTrue();
        assertThat(atHead.awaitProgress(Duration.ofSeconds(10))).isTrue();

        db.failOverToStandbyBehind();

        for (WatchCollector watch : List.of(atHead, behind)) {
          Status end = watch.awaitClose(Duration.ofSeconds(60));
          assertThat(end.getCode())
              .as("a watch holding versions the database lost")
              .isEqualTo(Status.Code.OUT_OF_RANGE);
          assertThat(end.getDescription())
              .contains("version " + lost + " is no longer in the database")
              .contains("take a new snapshot");
        }
      }

      long after = createTenant(http, "after");
      assertThat(after)
          .as("the first write after the loss, in a new history past every version read")
          .isEqualTo(kept + SKIP + 1);
      assertRestoredThenAfter(grpc, after);
      assertBrokersBehindTakeNewSnapshots(grpc, kept, lost, after);
      assertThat(node.process().logText())
          .contains(
              "the database is at metadata version "
                  + kept
                  + ", behind version "
                  + lost
                  + " that this node had read: it lost committed versions")
          .contains("Started a new history at version " + (kept + SKIP));
      assertThat(
              Metrics.valueIn(
                  Metrics.scrape(node.httpPort()), "controlplane_database_behind_total", ""))
          .as("found once, though the node may have to read the tables again to reload")
          .isEqualTo(1.0);
      assertThat(newHistoryRecords(db.primaryUrl()))
          .containsExactly("controlplane system cp1 restored " + kept + " skipped " + SKIP);
    }
  }

  @Test
  void aDatabaseRestoredFromABackupStartsANewHistoryOnTheOperatorsWord() throws Exception {
    String db = IsolatedServer.database("trust");
    Path dump =
        Files.createDirectories(Path.of("target", "lost-history-it")).resolve("backup.dump");
    Files.deleteIfExists(dump);
    long kept;
    long lost;
    try (IsolatedServer node = IsolatedServer.start("restore-before", Map.of())) {
      Http http = new Http(node.httpPort(), SharedServer.OPERATOR_TOKEN);
      kept = createTenants(http, "kept");
      dba(db, "pg_dump", "-Fc", "-f", dump.toString());
      lost = createTenants(http, "lost");
    }

    // The runbook: restore with the cluster stopped, then start a new history.
    assertThat(dba(db, "pg_restore", "--clean", "--if-exists", "--no-owner", dump.toString()))
        .isEmpty();
    Process mistyped = psql(db, "SELECT controlplane_start_new_history(0)");
    assertThat(mistyped.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(mistyped.exitValue()).isNotZero();
    assertThat(output(mistyped))
        .contains("skip is the number of versions to leave unused after the restored head")
        .contains("must be at least 1, not 0");
    Process started = psql(db, "SELECT controlplane_start_new_history()");
    assertThat(started.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(output(started).strip()).isEqualTo(Long.toString(kept + SKIP));

    try (IsolatedServer node = IsolatedServer.startOn("restore-after", db, Map.of());
        Grpc grpc = new Grpc(node.grpcPort(), SharedServer.BROKER_TOKEN)) {
      Http http = new Http(node.httpPort(), SharedServer.OPERATOR_TOKEN);
      long after = createTenant(http, "after");
      assertThat(after).isEqualTo(kept + SKIP + 1);
      assertRestoredThenAfter(grpc, after);
      assertBrokersBehindTakeNewSnapshots(grpc, kept, lost, after);

      // The step run again while the node serves: its watches end, and it writes on past it.
      try (WatchCollector atHead = WatchCollector.open(grpc.metadataAsync(), after)) {
        assertThat(atHead.awaitProgress(Duration.ofSeconds(10))).isTrue();
        Process again = psql(db, "SELECT controlplane_start_new_history()");
        assertThat(again.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(output(again).strip()).isEqualTo(Long.toString(after + SKIP));
        Status end = atHead.awaitClose(Duration.ofSeconds(10));
        assertThat(end.getCode()).isEqualTo(Status.Code.OUT_OF_RANGE);
        assertThat(end.getDescription()).contains("take a new snapshot");
      }
      assertThat(createTenant(http, "later")).isEqualTo(after + SKIP + 1);
    }
    assertThat(newHistoryRecords(db))
        .as("the operator's steps, by the database user that ran them")
        .containsExactly(
            "controlplane operator - restored " + kept + " skipped " + SKIP,
            "controlplane operator - restored " + (kept + SKIP + 1) + " skipped " + SKIP);
  }

  /**
   * The same restore without the operator's step: the node read the lost versions before it
   * stopped, remembers them in its data directory, and starts the new history itself. A fresh
   * database, another identity, starts from nothing with the same data directory.
   */
  @Test
  void aNodeThatReadVersionsBeforeARestoreStartsTheNewHistoryItself() throws Exception {
    String db = IsolatedServer.database("trust");
    Path data = Files.createTempDirectory("lost-history-node-");
    Map<String, String> settings = Map.of("SERVICE_CONTROLPLANE_RAFT_DATA_DIR", data.toString());
    Path dump =
        Files.createDirectories(Path.of("target", "lost-history-it")).resolve("remembered.dump");
    Files.deleteIfExists(dump);
    long kept;
    long lost;
    try (IsolatedServer node = IsolatedServer.start("remembered-before", settings)) {
      Http http = new Http(node.httpPort(), SharedServer.OPERATOR_TOKEN);
      kept = createTenants(http, "kept");
      dba(db, "pg_dump", "-Fc", "-f", dump.toString());
      lost = createTenants(http, "lost");
      awaitRemembered(data.resolve("highest-seen-version"), lost);
    }

    assertThat(dba(db, "pg_restore", "--clean", "--if-exists", "--no-owner", dump.toString()))
        .isEmpty();
    try (IsolatedServer node = IsolatedServer.startOn("remembered-after", db, settings);
        Grpc grpc = new Grpc(node.grpcPort(), SharedServer.BROKER_TOKEN)) {
      Http http = new Http(node.httpPort(), SharedServer.OPERATOR_TOKEN);
      long after = createTenant(http, "after");
      assertThat(after).isEqualTo(kept + SKIP + 1);
      assertRestoredThenAfter(grpc, after);
      assertBrokersBehindTakeNewSnapshots(grpc, kept, lost, after);
      assertThat(node.process().logText())
          .contains(
              "this node read metadata version "
                  + lost
                  + " of this database before it restarted, and the database is at version "
                  + kept);
    }
    assertThat(newHistoryRecords(db))
        .containsExactly("controlplane system cp1 restored " + kept + " skipped " + SKIP);

    try (IsolatedServer node = IsolatedServer.start("remembered-fresh", settings)) {
      Http http = new Http(node.httpPort(), SharedServer.OPERATOR_TOKEN);
      assertThat(createTenant(http, "first")).as("a fresh database's first version").isEqualTo(1);
    }
  }

  /** Waits until the node's memory of its highest version holds {@code version}. */
  private static void awaitRemembered(Path file, long version) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    String text = "";
    while (System.nanoTime() < deadline) {
      if (Files.exists(file)) {
        text = Files.readString(file).strip();
        if (text.endsWith(" " + version)) {
          return;
        }
      }
      sleep(100);
    }
    throw new AssertionError(file + " holds '" + text + "', not version " + version);
  }

  /** Three tenants named after {@code prefix}; the version of the last. */
  private static long createTenants(Http http, String prefix) {
    long version = 0;
    for (int i = 1; i <= 3; i++) {
      version = createTenant(http, prefix + "-" + i);
    }
    return version;
  }

  /** Writes a tenant, retrying while the node answers 503 (its database failing over). */
  private static long createTenant(Http http, String name) {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      Http.Reply reply = http.put("/v1/tenants/" + name, Http.tenant(name, ""));
      if (reply.status() == 200 || reply.status() == 201) {
        return reply.version();
      }
      assertThat(reply.status()).as(reply.body()).isEqualTo(503);
      assertThat(System.nanoTime()).as("written within 60 s: " + reply.body()).isLessThan(deadline);
      sleep(250);
    }
  }

  private static void assertRestoredThenAfter(Grpc grpc, long after) {
    Snapshots.Snapshot head = Snapshots.take(grpc, 0);
    assertThat(head.version()).isEqualTo(after);
    assertThat(head.metadata().getTenantsList())
        .extracting(Tenant::getName)
        .containsExactlyInAnyOrder("kept-1", "kept-2", "kept-3", "after");
  }

  /**
   * A broker that comes back at a version of the lost history, or at the restored head, is told to
   * take a new snapshot; one that took it at the new history's start follows from there.
   */
  private static void assertBrokersBehindTakeNewSnapshots(
      Grpc grpc, long kept, long lost, long after) throws Exception {
    for (long version : List.of(lost, kept, kept + 1)) {
      try (WatchCollector watch = WatchCollector.open(grpc.metadataAsync(), version)) {
        Status end = watch.awaitClose(Duration.ofSeconds(10));
        assertThat(end.getCode())
            .as("a watch from %d", version)
            .isEqualTo(Status.Code.OUT_OF_RANGE);
        assertThat(end.getDescription()).contains("take a new snapshot");
      }
    }
    try (WatchCollector watch = WatchCollector.open(grpc.metadataAsync(), kept + SKIP)) {
      assertThat(watch.awaitVersion(after, Duration.ofSeconds(10))).isTrue();
      assertThat(watch.updates()).hasSize(1);
      assertThat(watch.updates().get(0).getTenant().getName()).isEqualTo("after");
    }
  }

  private static List<String> newHistoryRecords(String jdbcUrl) throws Exception {
    try (Connection c =
            DriverManager.getConnection(jdbcUrl, TestDatabase.USER, TestDatabase.PASSWORD);
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT principal, principal_type, coalesce(node, '-'),"
                    + " metadata->>'restored_version', metadata->>'skipped', version"
                    + " FROM audit_records WHERE operation = 'cluster.new_history' ORDER BY id")) {
      List<String> records = new ArrayList<>();
      while (rs.next()) {
        assertThat(rs.getLong(6))
            .as("the record's version: the new head")
            .isEqualTo(rs.getLong(4) + rs.getLong(5));
        records.add(
            String.join(
                " ",
                rs.getString(1),
                rs.getString(2),
                rs.getString(3),
                "restored",
                rs.getString(4),
                "skipped",
                rs.getString(5)));
      }
      return records;
    }
  }

  /**
   * Runs a PostgreSQL client program on {@code jdbcUrl}'s database; its output (it must succeed).
   */
  private static String dba(String jdbcUrl, String program, String... args) throws Exception {
    Process p = client(jdbcUrl, program, args);
    String out = output(p);
    assertThat(p.waitFor(2, TimeUnit.MINUTES)).as(program).isTrue();
    assertThat(p.exitValue()).as(program + ": " + out).isZero();
    return out;
  }

  private static Process psql(String jdbcUrl, String sql) throws Exception {
    return client(jdbcUrl, "psql", "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-c", sql);
  }

  private static Process client(String jdbcUrl, String program, String... args) throws Exception {
    URI uri = URI.create(jdbcUrl.substring("jdbc:".length()));
    List<String> command = new ArrayList<>(List.of(program));
    command.addAll(List.of(args));
    command.addAll(
        List.of(
            "-h",
            uri.getHost(),
            "-p",
            Integer.toString(uri.getPort()),
            "-U",
            TestDatabase.USER,
            "-d",
            uri.getPath().substring(1)));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("PGPASSWORD", TestDatabase.PASSWORD);
    return builder.start();
  }

  private static String output(Process p) throws Exception {
    return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
