package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.it.support.Grpc;
import dev.controlplane.it.support.IsolatedServer;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.WatchCollector;
import io.grpc.Status;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A node stopped as an orchestrator stops it (SIGTERM) ends its open watches itself, with the
 * reason and the advice a broker acts on, instead of leaving them to the gRPC server's grace period
 * and its transport-level cut.
 */
class GracefulStopIT {

  @Test
  void aStoppingNodeTellsItsWatchersToResumeOnAnotherNode() throws Exception {
    try (IsolatedServer node =
            IsolatedServer.start(
                "graceful-stop", Map.of("SERVICE_CONTROLPLANE_WATCH_PROGRESS_INTERVAL", "1s"));
        Grpc grpc = new Grpc(node.grpcPort(), SharedServer.BROKER_TOKEN);
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
}
