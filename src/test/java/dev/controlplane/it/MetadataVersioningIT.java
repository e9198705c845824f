package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Message;
import dev.controlplane.it.support.ClientImage;
import dev.controlplane.it.support.Grpc;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.TestDatabase;
import dev.controlplane.it.support.WatchCollector;
import dev.controlplane.proto.v1.MetadataUpdate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The version counter under concurrent writers, as the change log table and a watch see it. */
class MetadataVersioningIT {

  private static final int WRITERS = 8;
  private static final int WRITES_PER_WRITER = 250;

  @BeforeAll
  static void server() throws Exception {
    SharedServer.ensureStarted();
  }

  @Test
  void concurrentWritersProduceGaplessOrderedVersionsThatWatchAndTableAgreeOn() throws Exception {
    Http http = Http.shared();
    assertThat(http.put("/v1/tenants/versioning", Http.tenant("versioning", "v")).status())
        .isIn(200, 201);
    long start = TestDatabase.headVersion();
    int total = WRITERS * WRITES_PER_WRITER;

    try (Grpc grpc = Grpc.shared();
        WatchCollector watch = WatchCollector.open(grpc.metadataAsync(), start)) {
      ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
      List<Future<List<Long>>> acknowledged = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        acknowledged.add(
            pool.submit(
                () -> {
                  List<Long> versions = new ArrayList<>();
                  for (int i = 0; i < WRITES_PER_WRITER; i++) {
                    // Each writer keeps rewriting its own namespaces: creates, then updates.
                    String ns = "w" + writer + "-" + (i % 25);
                    var reply =
                        http.put(
                            "/v1/tenants/versioning/namespaces/" + ns,
                            Http.namespace("versioning", ns, "write " + i));
                    assertThat(reply.status()).as(reply.body()).isIn(200, 201);
                    versions.add(reply.version());
                  }
                  return versions;
                }));
      }
      List<Long> acked = new ArrayList<>();
      for (Future<List<Long>> f : acknowledged) {
        acked.addAll(f.get());
      }
      pool.shutdown();

      long end = TestDatabase.headVersion();
      // Other tests' brokers may be marked down meanwhile: those updates interleave, and count too.
      assertThat(end - start).isGreaterThanOrEqualTo(total);
      assertThat(acked).hasSize(total).doesNotHaveDuplicates().allMatch(v -> v > start && v <= end);
      assertThat(watch.awaitVersion(end, Duration.ofSeconds(30)))
          .as("watch reached %d", end)
          .isTrue();

      List<MetadataUpdate> watched =
          watch.updates().stream().filter(u -> u.getVersion() <= end).toList();
      List<TestDatabase.LogRow> table =
          TestDatabase.logRows(start).stream().filter(r -> r.version() <= end).toList();
      int span = (int) (end - start);
      assertThat(watched).hasSize(span);
      assertThat(table).hasSize(span);
      for (int i = 0; i < span; i++) {
        MetadataUpdate u = watched.get(i);
        TestDatabase.LogRow row = table.get(i);
        assertThat(u.getVersion()).isEqualTo(start + 1 + i);
        assertThat(row.version()).isEqualTo(u.getVersion());
        assertThat(row.type()).isEqualTo(u.getType().name());
        assertThat(row.key()).isEqualTo(ClientImage.key(u).substring(row.kind().length() + 1));
      }
      List<Long> ours =
          watched.stream()
              .filter(u -> u.hasNamespace() && u.getNamespace().getTenant().equals("versioning"))
              .map(MetadataUpdate::getVersion)
              .toList();
      assertThat(ours).containsExactlyInAnyOrderElementsOf(acked);
      watched.stream()
          .filter(MetadataUpdate::hasNamespace)
          .forEach(u -> assertThat(u.getNamespace().getVersion()).isEqualTo(u.getVersion()));
    }
  }

  @Test
  void aSnapshotAtAPastVersionEqualsTheEarlierSnapshotWithTheLogReplayedOntoIt() throws Exception {
    Http http = Http.shared();
    http.put("/v1/tenants/replay", Http.tenant("replay", "r"));
    try (Grpc grpc = Grpc.shared()) {
      long before = TestDatabase.headVersion();
      // The node keeps each resource's wire form; this makes them for the objects as they are now.
      ClientImage.snapshot(grpc.metadata(), 0);
      for (int i = 0; i < 30; i++) {
        http.put(
            "/v1/tenants/replay/namespaces/n" + (i % 7),
            Http.namespace("replay", "n" + (i % 7), "d" + i));
        if (i % 10 == 9) {
          http.delete("/v1/tenants/replay/namespaces/n" + (i % 7));
        }
      }
      long after = TestDatabase.headVersion();
      ClientImage base = ClientImage.snapshot(grpc.metadata(), before);
      assertThat(base.version()).isEqualTo(before);
      try (WatchCollector watch = WatchCollector.open(grpc.metadataAsync(), before)) {
        assertThat(watch.awaitVersion(after, Duration.ofSeconds(10))).isTrue();
        List<MetadataUpdate> updates = watch.updates();
        for (long v = before + 1; v <= after; v++) {
          base.apply(updates.get((int) (v - before - 1)));
          if (v % 5 == 0 || v == after) {
            ClientImage atV = ClientImage.snapshot(grpc.metadata(), v);
            assertThat(atV.version()).isEqualTo(v);
            assertThat(atV.resources()).as("snapshot at %d", v).isEqualTo(base.resources());
          }
        }
      }
      ClientImage latest = ClientImage.snapshot(grpc.metadata(), 0);
      assertThat(latest.version()).isGreaterThanOrEqualTo(after);
      // Only this test writes the tenant "replay": at any later version it is as replayed.
      assertThat(ofTenant(latest, "replay")).isEqualTo(ofTenant(base, "replay")).isNotEmpty();
    }
  }

  private static Map<String, Message> ofTenant(ClientImage image, String tenant) {
    Map<String, Message> of = new TreeMap<>();
    image
        .resources()
        .forEach(
            (key, resource) -> {
              if (key.equals("Tenant " + tenant) || key.startsWith("Namespace " + tenant + "/")) {
                of.put(key, resource);
              }
            });
    return of;
  }
}
