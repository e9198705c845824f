package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.it.support.Grpc;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.IsolatedServer;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.TestDatabase;
import dev.controlplane.it.support.WatchCollector;
import io.grpc.Status;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A change-log entry this build cannot read, as a newer build's node writes it in a cluster
 * upgraded one node at a time (docs/operations.md, "Upgrading to a new build"): the node says so in
 * its log, once and not twice a second, reports itself not ready over HTTP (logging that once too,
 * not at every probe) and not serving over gRPC health, sends its watchers to another node, and
 * recovers by itself once the entry is readable.
 */
class UnreadableChangeLogIT {

  private static final String FAILED = "reading the change log failed";
  private static final String GO_ELSEWHERE =
      "this node cannot read the change log; resume on another node";
  private static final String NOT_READY =
      "this node is not ready, /health/ready answers 503 until it is: this node cannot read the"
          + " change log";

  @Test
  void aNodeThatCannotReadTheLogSaysWhyOnceIsNotReadyAndRecovers() throws Exception {
    try (IsolatedServer node = IsolatedServer.start("unreadable-log", Map.of());
        Grpc grpc = new Grpc(node.grpcPort(), SharedServer.BROKER_TOKEN)) {
      String db = IsolatedServer.database("trust");
      Http http = new Http(node.httpPort(), SharedServer.OPERATOR_TOKEN);
      Http probe = new Http(node.httpPort(), null);
      long version = http.put("/v1/tenants/acme", Http.tenant("acme", "before")).version();
      long next = version + 1;
      WatchCollector current = WatchCollector.open(grpc.metadataAsync(), version);

      // What a newer build with a Tenant field this one lacks would have committed.
      execute(
          db,
          "INSERT INTO metadata_updates (version, update_type, kind, resource_key, payload,"
              + " previous, term) SELECT "
              + next
              + ", 'UPDATE', 'Tenant', resource_key, jsonb_set(jsonb_set(payload, '{spec,tier}',"
              + " '\"gold\"'), '{metadata,version}', '"
              + next
              + "'), payload, term FROM metadata_updates WHERE version = "
              + version
              + "; UPDATE cluster_state SET metadata_version = "
              + next);

      Http.awaitStatus(() -> probe.get("/health/ready").status(), 503, Duration.ofSeconds(30));
      awaitGrpcHealth(grpc, ServingStatus.NOT_SERVING);
      assertSentElsewhere(current);
      current.close();
      try (WatchCollector refused = WatchCollector.open(grpc.metadataAsync(), version)) {
        assertSentElsewhere(refused);
      }
      var data = probe.get("/health/ready").json().path("checks").get(0).path("data");
      assertThat(data.path("change_log").asText()).startsWith("unreadable for ");
      assertThat(data.path("database").asBoolean()).isTrue();
      String log = node.process().logText();
      assertThat(log)
          .contains("the stored Tenant of version " + next)
          .contains("spec.tier: is not a known field")
          .contains("every node of a cluster must run the same build");
      assertThat(log.split(FAILED, -1))
          .as("one warning, though the node retried every half second for over 5 s")
          .hasSize(2);
      for (int i = 0; i < 5; i++) {
        assertThat(probe.get("/health/ready").status()).isEqualTo(503);
      }
      log = node.process().logText();
      assertThat(log.split(NOT_READY, -1))
          .as("one line for the change of readiness, however often the node is probed")
          .hasSize(2);
      assertThat(log).doesNotContain("CWMMH0052W:");

      execute(
          db,
          "UPDATE metadata_updates SET payload = payload #- '{spec,tier}' WHERE version = " + next);

      Http.awaitStatus(() -> probe.get("/health/ready").status(), 200, Duration.ofSeconds(30));
      awaitGrpcHealth(grpc, ServingStatus.SERVING);
      assertThat(
              probe
                  .get("/health/ready")
                  .json()
                  .path("checks")
                  .get(0)
                  .path("data")
                  .path("change_log")
                  .asText())
          .isEqualTo("ok");
      assertThat(node.process().logText())
          .contains("reading the change log works again")
          .contains("this node is ready again");
      try (WatchCollector resumed = WatchCollector.open(grpc.metadataAsync(), version)) {
        assertThat(resumed.awaitVersion(next, Duration.ofSeconds(10))).isTrue();
      }
    }
  }

  /** Waits for the watch to end as it does 15 s after the node stopped reading the log. */
  private static void assertSentElsewhere(WatchCollector watch) throws Exception {
    Status end = watch.awaitClose(Duration.ofSeconds(30));
    assertThat(end.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(end.getDescription()).isEqualTo(GO_ELSEWHERE);
  }

  /** Waits up to 10 s for the gRPC health service to report {@code status}, as a balancer sees. */
  private static void awaitGrpcHealth(Grpc grpc, ServingStatus status) throws Exception {
    var health = HealthGrpc.newBlockingStub(grpc.channel());
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    ServingStatus last;
    do {
      last = health.check(HealthCheckRequest.getDefaultInstance()).getStatus();
      if (last == status) {
        return;
      }
      Thread.sleep(100);
    } while (System.nanoTime() < deadline);
    assertThat(last).as("gRPC health").isEqualTo(status);
  }

  private static void execute(String db, String sql) throws Exception {
    try (Connection c = DriverManager.getConnection(db, TestDatabase.USER, TestDatabase.PASSWORD);
        Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }
}
