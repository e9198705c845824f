package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.it.support.ClientImage;
import dev.controlplane.it.support.Grpc;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.TestDatabase;
import dev.controlplane.it.support.WatchCollector;
import dev.controlplane.proto.v1.MetadataUpdate;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A Java client playing a broker's lifecycle from spec section 4 while metadata keeps changing:
 * snapshot at 0, watch from its version, lose the connection, watch again from its current version
 * — and end with exactly the server's state.
 */
class BrokerClientIT {

  @BeforeAll
  static void server() throws Exception {
    SharedServer.ensureStarted();
  }

  @Test
  void aBrokerThatLosesItsConnectionResumesAndEndsWithExactlyTheServersState() throws Exception {
    Http http = Http.shared();
    http.put("/v1/tenants/lifecycle", Http.tenant("lifecycle", "broker lifecycle"));
    AtomicBoolean writing = new AtomicBoolean(true);
    ExecutorService writer = Executors.newSingleThreadExecutor();
    Future<Integer> writes =
        writer.submit(
            () -> {
              int n = 0;
              while (writing.get()) {
                String ns = "n" + (n % 20);
                if (n % 7 == 6) {
                  http.delete("/v1/tenants/lifecycle/namespaces/" + ns);
                } else {
                  http.put(
                      "/v1/tenants/lifecycle/namespaces/" + ns,
                      Http.namespace("lifecycle", ns, "rev " + n));
                }
                n++;
              }
              return n;
            });
    try {
      ClientImage image;
      try (Grpc first = Grpc.shared()) {
        image = ClientImage.snapshot(first.metadata(), 0);
        WatchCollector watch = WatchCollector.open(first.metadataAsync(), image.version());
        long target = image.version() + 50;
        assertThat(watch.awaitVersion(target, Duration.ofSeconds(20))).isTrue();
        for (MetadataUpdate u : watch.updates()) {
          image.apply(u);
        }
        // The connection is lost: the channel goes away under the open watch.
      }
      long resumedFrom = image.version();
      try (Grpc second = Grpc.shared();
          WatchCollector watch = WatchCollector.open(second.metadataAsync(), resumedFrom)) {
        assertThat(watch.awaitVersion(resumedFrom + 50, Duration.ofSeconds(20))).isTrue();
        writing.set(false);
        int total = writes.get();
        assertThat(total).isGreaterThan(100);
        long head = TestDatabase.headVersion();
        assertThat(watch.awaitVersion(head, Duration.ofSeconds(20))).isTrue();
        for (MetadataUpdate u : watch.updates()) {
          if (u.getVersion() <= head) {
            image.apply(u);
          }
        }
        ClientImage server = ClientImage.snapshot(second.metadata(), head);
        assertThat(image.version()).isEqualTo(head);
        assertThat(image.resources()).isEqualTo(server.resources());
      }
    } finally {
      writing.set(false);
      writer.shutdownNow();
    }
  }
}
