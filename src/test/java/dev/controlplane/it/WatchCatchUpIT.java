package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.it.support.Grpc;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.IsolatedServer;
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
      }
    }
  }
}
