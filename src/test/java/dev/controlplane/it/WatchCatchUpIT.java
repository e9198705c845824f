package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.it.support.Grpc;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.IsolatedServer;
import dev.controlplane.it.support.Metrics;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.WatchCollector;
import dev.controlplane.proto.v1.MetadataUpdate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Watches start from versions the node no longer holds in memory (a window of 20 updates). Their
 * deliveries from memory run on the connection's event loop, which must never wait for the
 * database: reading the log has to move to the hub's own threads and back, without losing,
 * repeating or reordering an update.
 */
class WatchCatchUpIT {

  private static final int WATCHES = 10;

  @Test
  void watchesOnOneConnectionCatchUpFromTheLogThenFollowLiveUpdatesInOrder() throws Exception {
    try (IsolatedServer node =
        IsolatedServer.start("watch-catch-up", Map.of("SERVICE_CONTROLPLANE_WATCH_WINDOW", "20"))) {
      Http http = new Http(node.httpPort(), SharedServer.OPERATOR_TOKEN);
      long early = http.writeNamespaces("early", 150, 40);
      List<Long> starts = new ArrayList<>();
      List<WatchCollector> watches = new ArrayList<>();
      try (Grpc grpc = new Grpc(node.grpcPort(), SharedServer.BROKER_TOKEN)) {
        for (int i = 0; i < WATCHES; i++) {
          long from = 1 + i * (early - 30) / WATCHES; // every one behind the window
          starts.add(from);
          watches.add(WatchCollector.open(grpc.metadataAsync(), from));
        }
        long live = http.writeNamespaces("late", 60, 40);
        for (int i = 0; i < WATCHES; i++) {
          WatchCollector watch = watches.get(i);
          assertThat(watch.awaitVersion(live, Duration.ofSeconds(30)))
              .as("watch from %d reached %d", starts.get(i), live)
              .isTrue();
          List<Long> versions = watch.updates().stream().map(MetadataUpdate::getVersion).toList();
          for (int k = 0; k < versions.size(); k++) {
            assertThat(versions.get(k))
                .as("watch from %d", starts.get(i))
                .isEqualTo(starts.get(i) + 1 + k);
          }
          watch.close();
        }
        watchesResumingFromOnePlaceShareTheirReadsOfTheLog(node, grpc, live);
      }
    }
  }

  /**
   * Brokers resuming after a failover want about the same versions: the node reads each page of the
   * log once for all of them, not once per watch (at most once per drainer thread when two miss the
   * page at the same moment).
   */
  private static void watchesResumingFromOnePlaceShareTheirReadsOfTheLog(
      IsolatedServer node, Grpc grpc, long head) throws Exception {
    String reads = "controlplane_watch_log_reads_total";
    double before = Metrics.valueIn(Metrics.scrape(node.httpPort()), reads, "");
    List<WatchCollector> resumed = new ArrayList<>();
    for (int i = 0; i < WATCHES; i++) {
      resumed.add(WatchCollector.open(grpc.metadataAsync(), 1));
    }
    for (WatchCollector watch : resumed) {
      assertThat(watch.awaitVersion(head, Duration.ofSeconds(30))).isTrue();
      assertThat(watch.updates()).hasSize((int) head - 1);
      watch.close();
    }
    double after = Metrics.valueIn(Metrics.scrape(node.httpPort()), reads, "");
    assertThat(after - before)
        .as("pages read from the table for %d watches resuming from version 1", WATCHES)
        .isBetween(0.0, 2.0);
  }
}
