package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.it.support.Auth;
import dev.controlplane.it.support.Grpc;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.Metrics;
import dev.controlplane.it.support.OidcProvider;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.TestDatabase;
import dev.controlplane.it.support.WatchCollector;
import dev.controlplane.proto.v1.RegisterBrokerRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The service's own metrics in /metrics (Prometheus text) follow what happens on the node. */
class OperationalMetricsIT {

  @BeforeAll
  static void server() throws Exception {
    SharedServer.ensureStarted();
  }

  @Test
  void theServedVersionAndOpenWatchesAreMetrics() throws Exception {
    assertThat(Http.shared().put("/v1/tenants/metrics-a", Http.tenant("metrics-a", "x")).status())
        .isEqualTo(201);
    long head = TestDatabase.headVersion();
    Metrics.await("controlplane_metadata_version", "", v -> v >= head);

    double open = Metrics.value("controlplane_watch_streams", "");
    try (Grpc grpc = Grpc.shared();
        WatchCollector watch = WatchCollector.open(grpc.metadataAsync(), head)) {
      Metrics.await("controlplane_watch_streams", "", v -> v >= open + 1);
    }
    Metrics.await("controlplane_watch_streams", "", v -> v <= open);
  }

  @Test
  void tokenExchangesAreCountedByOutcome() throws Exception {
    Auth.bootstrap("metrics", "idp-metrics", null, "alice");
    String counter = "controlplane_token_exchanges_total";
    double issued = Metrics.value(counter, "outcome=\"issued\"");
    double invalid = Metrics.value(counter, "outcome=\"invalid_token\"");
    double forbidden = Metrics.value(counter, "outcome=\"forbidden\"");

    Auth.serviceToken("metrics", OidcProvider.token("idp-metrics", "alice", Map.of()), "{}");
    assertThat(Auth.exchange("metrics", "not-a-jwt", "{}").status()).isEqualTo(401);
    assertThat(
            Auth.exchange("metrics", OidcProvider.token("idp-metrics", "bob", Map.of()), "{}")
                .status())
        .isEqualTo(403);

    assertThat(Metrics.value(counter, "outcome=\"issued\"")).isEqualTo(issued + 1);
    assertThat(Metrics.value(counter, "outcome=\"invalid_token\"")).isEqualTo(invalid + 1);
    assertThat(Metrics.value(counter, "outcome=\"forbidden\"")).isEqualTo(forbidden + 1);
  }

  @Test
  void brokersAreCountedByStatus() throws Exception {
    // Brokers of other tests may go down meanwhile: the total over the statuses is what a
    // registration must raise by exactly one.
    double before = registeredBrokers();
    try (Grpc grpc = Grpc.shared()) {
      grpc.brokers()
          .registerBroker(
              RegisterBrokerRequest.newBuilder()
                  .setBrokerId("metrics-broker")
                  .setAddress("10.0.0.9:7000")
                  .build());
    }
    Metrics.await(
        "registered brokers", OperationalMetricsIT::registeredBrokers, n -> n == before + 1);
  }

  @AfterAll
  static void brokerMarkedDown() throws Exception {
    TestDatabase.awaitBrokersDown(List.of("metrics-broker"));
  }

  private static double registeredBrokers() {
    double total = 0;
    for (String status : new String[] {"active", "draining", "down"}) {
      double n = Metrics.value("controlplane_brokers", "status=\"" + status + "\"");
      assertThat(n).as(status).isNotNegative();
      total += n;
    }
    return total;
  }
}
