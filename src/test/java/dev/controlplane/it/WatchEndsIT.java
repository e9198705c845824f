package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.it.support.Grpc;
import dev.controlplane.it.support.IsolatedServer;
import dev.controlplane.it.support.Metrics;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.SilentLink;
import dev.controlplane.it.support.WatchCollector;
import io.grpc.Status;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * How watches end on a node that outlives its brokers or is stopped itself: a watch whose broker
 * went silent without closing its connection is closed by the node's keepalive pings, and a node
 * stopped as an orchestrator stops it (SIGTERM) ends its open watches itself, with the reason and
 * the advice a broker acts on, instead of leaving them to the gRPC server's grace period and its
 * transport-level cut. One node; the stop comes last.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WatchEndsIT {

  private static final String WATCHES = "controlplane_watch_streams";

  private static IsolatedServer node;

  @BeforeAll
  static void node() throws Exception {
    node =
        IsolatedServer.start(
            "watch-ends",
            Map.of(
                "SERVICE_CONTROLPLANE_WATCH_PROGRESS_INTERVAL", "1s",
                "SERVICE_CONTROLPLANE_GRPC_KEEPALIVE_TIME", "10s",
                "SERVICE_CONTROLPLANE_GRPC_KEEPALIVE_TIMEOUT", "2s",
                "SERVICE_CONTROLPLANE_GRPC_MAX_CALLS_PER_CONNECTION", "3"));
  }

  @AfterAll
  static void close() {
    if (node != null) {
      node.close();
    }
  }

  @Test
  @Order(1)
  void aWatchWhoseBrokerFellSilentIsClosedByKeepaliveAndAHealthyOneStays() throws Exception {
    try (SilentLink link = new SilentLink(node.grpcPort());
        Grpc behindLink = new Grpc(link.port(), SharedServer.BROKER_TOKEN);
        Grpc direct = new Grpc(node.grpcPort(), SharedServer.BROKER_TOKEN);
        WatchCollector silent = WatchCollector.open(behindLink.metadataAsync(), 0);
        WatchCollector healthy = WatchCollector.open(direct.metadataAsync(), 0)) {
      assertThat(silent.awaitProgress(Duration.ofSeconds(10))).as(silent.state()).isTrue();
      assertThat(healthy.awaitProgress(Duration.ofSeconds(10))).as(healthy.state()).isTrue();
      assertThat(watches()).isEqualTo(2);

      link.silence();

      // Pinged after 10 s (gRPC's least keepalive time) without a byte from its broker, closed 2 s
      // later without an answer; the healthy watch answers its pings and stays.
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (watches() != 1 && System.nanoTime() < deadline) {
        Thread.sleep(200);
      }
      assertThat(watches()).as("open watches 30 s after the link fell silent").isEqualTo(1);
      int progressBefore = healthy.progressVersions().size();
      assertThat(healthy.awaitProgressAfter(progressBefore, Duration.ofSeconds(10)))
          .as(healthy.state())
          .isTrue();
      assertThat(watches()).isEqualTo(1);
    }
  }

  @Test
  @Order(2)
  void aConnectionCarriesAtMostTheConfiguredCallsAndTheNextStartsWhenOneEnds() throws Exception {
    try (Grpc crowded = new Grpc(node.grpcPort(), SharedServer.BROKER_TOKEN);
        Grpc another = new Grpc(node.grpcPort(), SharedServer.BROKER_TOKEN);
        WatchCollector first = WatchCollector.open(crowded.metadataAsync(), 0);
        WatchCollector second = WatchCollector.open(crowded.metadataAsync(), 0);
        WatchCollector third = WatchCollector.open(crowded.metadataAsync(), 0)) {
      for (WatchCollector watch : new WatchCollector[] {first, second, third}) {
        assertThat(watch.awaitProgress(Duration.ofSeconds(10))).as(watch.state()).isTrue();
      }
      try (WatchCollector waiting = WatchCollector.open(crowded.metadataAsync(), 0);
          WatchCollector elsewhere = WatchCollector.open(another.metadataAsync(), 0)) {
        // An open watch at the head gets a progress notice every second (the setting above).
        assertThat(elsewhere.awaitProgress(Duration.ofSeconds(10))).as(elsewhere.state()).isTrue();
        assertThat(waiting.awaitProgress(Duration.ofSeconds(3)))
            .as("a fourth call on a connection that may carry three: " + waiting.state())
            .isFalse();
        // Three on the crowded connection and one elsewhere (the first test's are gone by now).
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (watches() != 4 && System.nanoTime() < deadline) {
          Thread.sleep(100);
        }
        assertThat(watches()).as("watches open on the node").isEqualTo(4);

        first.close();
        assertThat(waiting.awaitProgress(Duration.ofSeconds(10))).as(waiting.state()).isTrue();
      }
    }
  }

  @Test
  @Order(3)
  void aStoppingNodeTellsItsWatchersToResumeOnAnotherNode() throws Exception {
    try (Grpc grpc = new Grpc(node.grpcPort(), SharedServer.BROKER_TOKEN);
        WatchCollector first = WatchCollector.open(grpc.metadataAsync(), 0);
        WatchCollector second = WatchCollector.open(grpc.metadataAsync(), 0)) {
      // Both watches are open and current: each had a progress notice.
      assertThat(first.awaitProgress(Duration.ofSeconds(10))).as(first.state()).isTrue();
      assertThat(second.awaitProgress(Duration.ofSeconds(10))).as(second.state()).isTrue();

      node.process().terminate();

      for (WatchCollector watch : new WatchCollector[] {first, second}) {
        Status status = watch.awaitClose(Duration.ofSeconds(20));
        assertThat(status.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
        assertThat(status.getDescription()).contains("resume on another node");
      }
      node.process().awaitExit(Duration.ofSeconds(60));
    }
  }

  private static double watches() {
    return Metrics.valueIn(Metrics.scrape(node.httpPort()), WATCHES, "");
  }
}
