package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.it.support.Grpc;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.LiveBrokers;
import dev.controlplane.it.support.Metrics;
import dev.controlplane.it.support.MixedWrites;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.Snapshots;
import dev.controlplane.it.support.TestDatabase;
import dev.controlplane.it.support.WatchCollector;
import dev.controlplane.proto.v1.AdminServiceGrpc;
import dev.controlplane.proto.v1.Metadata;
import dev.controlplane.proto.v1.MetadataUpdate;
import dev.controlplane.proto.v1.StreamStatus;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Creates, updates and deletes of namespaces and streams from many writers at once, on a few names
 * so that they collide inside the leader's batches, alongside the purges the leader makes on its
 * own. Whatever the interleaving, the four places that hold the metadata must agree: the change
 * log, what a watcher received, the snapshot served from the in-memory image, and the tables; and
 * the rules checked against the image (a parent exists, a namespace is empty when deleted, the
 * tenant's stream quota) must hold at every version, not only at the end.
 */
class MixedWritesIT {

  private static final String TENANT = "mixed-writes";
  private static final int WRITERS = 24;

  /**
   * Long enough for streams deleted early to pass their grace period (the shared server's is 6 s)
   * and be purged while the writers still try to create them again.
   */
  private static final Duration WRITING = Duration.ofSeconds(12);

  /** Streams go in the first {@link #STREAM_NAMESPACES}; the others can always be deleted. */
  private static final int NAMESPACES = 6;

  private static final int STREAM_NAMESPACES = 3;
  private static final int STREAMS_PER_NAMESPACE = 4;
  private static final int MAX_STREAMS = 3;
  private static final String FAILED_OPERATIONS = "controlplane_write_operations_failed_total";

  @BeforeAll
  static void server() throws Exception {
    SharedServer.ensureStarted();
  }

  @Test
  void manyWritersCollidingOnFewNamesLeaveTheLogTheWatchTheSnapshotAndTheTablesAgreeing()
      throws Exception {
    Http http = Http.shared();
    assertThat(
            http.put("/v1/tenants/" + TENANT, MixedWrites.tenantDocument(TENANT, MAX_STREAMS))
                .status())
        .isIn(200, 201);
    long start = TestDatabase.headVersion();
    double failedBefore = Metrics.value(FAILED_OPERATIONS, "");
    try (Grpc grpc = Grpc.shared();
        Grpc operator = new Grpc(SharedServer.grpcPort(), SharedServer.OPERATOR_TOKEN);
        WatchCollector watch = WatchCollector.open(grpc.metadataAsync(), start);
        LiveBrokers brokers = new LiveBrokers("mixed-b1", "mixed-b2")) {
      MixedWrites writes =
          new MixedWrites(
              TENANT,
              AdminServiceGrpc.newBlockingStub(operator.channel()),
              List.of("mixed-b1", "mixed-b2"),
              NAMESPACES,
              STREAM_NAMESPACES,
              STREAMS_PER_NAMESPACE);
      writes.run(http, WRITERS, WRITING, System.nanoTime());
      Snapshots.Snapshot snapshot = Snapshots.take(grpc, 0);
      assertThat(watch.awaitVersion(snapshot.version(), Duration.ofSeconds(30)))
          .as("the watch reaches version %d", snapshot.version())
          .isTrue();
      // The watch, open from the start, is the whole history: the log's retention (3,000 versions
      // on the shared server) may have trimmed its first part by now.
      List<MetadataUpdate> history =
          watch.updates().stream().filter(u -> u.getVersion() <= snapshot.version()).toList();
      TreeMap<Long, String> watched = new TreeMap<>();
      for (int i = 0; i < history.size(); i++) {
        assertThat(history.get(i).getVersion()).as("gapless").isEqualTo(start + 1 + i);
        watched.put(history.get(i).getVersion(), MixedWrites.describe(history.get(i)));
      }
      assertThat(history).hasSize((int) (snapshot.version() - start));
      writes.assertAnswersMatch(watched);
      // One query reads a contiguous suffix of the log, whatever retention trims meanwhile.
      TreeMap<Long, String> logged = new TreeMap<>();
      for (TestDatabase.LogRow row : TestDatabase.logRows(start)) {
        if (row.version() <= snapshot.version()) {
          logged.put(row.version(), MixedWrites.describe(row));
        }
      }
      assertThat(logged).as("the log's retained part").isNotEmpty();
      assertThat(differences(logged, watched.tailMap(logged.firstKey(), true)))
          .as("versions where the log and what the watcher received differ")
          .isEmpty();

      Replay replay = Replay.of(history);
      Resources served = Resources.of(snapshot);
      assertThat(served.namespaces).as("namespaces in the snapshot").isEqualTo(replay.namespaces);
      assertThat(served.streams).as("streams in the snapshot").isEqualTo(replay.streams);
      assertThat(served.placements).as("placements in the snapshot").isEqualTo(replay.placements);
      Resources tables = Resources.inTables();
      assertThat(tables.namespaces).as("namespaces in the tables").isEqualTo(replay.namespaces);
      assertThat(tables.streams).as("active streams in the tables").isEqualTo(replay.streams);
      assertThat(tables.placements).as("placements in the tables").isEqualTo(replay.placements);
      // A write the image's checks accepted was never refused by the database instead.
      assertThat(Metrics.value(FAILED_OPERATIONS, "") - failedBefore)
          .as("operations failed by the database")
          .isZero();
      var seen = writes.answers().keySet();
      assertThat(seen)
          .as("the writes collided: some passed, some were refused by a rule")
          .contains("delete stream 200", "grpc delete stream OK", "grpc restore stream OK")
          .contains("grpc transfer leadership OK", "delete namespace 200", "delete namespace 409")
          .containsAnyOf("create stream 201", "grpc create stream OK");
      assertThat(seen)
          .as("the tenant's quota refused some")
          .containsAnyOf(
              "create stream 429",
              "grpc create stream RESOURCE_EXHAUSTED",
              "grpc restore stream RESOURCE_EXHAUSTED");
    }
  }

  /** The first differences between two histories, "version: a | b", at most 20. */
  private static List<String> differences(Map<Long, String> a, Map<Long, String> b) {
    TreeMap<Long, String> all = new TreeMap<>(a);
    all.putAll(b);
    return all.keySet().stream()
        .filter(v -> !java.util.Objects.equals(a.get(v), b.get(v)))
        .limit(20)
        .map(v -> v + ": " + a.get(v) + " | " + b.get(v))
        .toList();
  }

  /** The tenant's namespaces, active streams and placements, each by name with its version. */
  private static class Resources {
    final Map<String, Long> namespaces = new TreeMap<>();
    final Map<String, Long> streams = new TreeMap<>();
    final Map<String, Long> placements = new TreeMap<>();

    /** As the snapshot serves them (from the leader's image). */
    static Resources of(Snapshots.Snapshot snapshot) {
      Resources r = new Resources();
      Metadata m = snapshot.metadata();
      m.getNamespacesList().stream()
          .filter(n -> n.getTenant().equals(TENANT))
          .forEach(n -> r.namespaces.put(n.getName(), n.getVersion()));
      m.getStreamsList().stream()
          .filter(st -> st.getTenant().equals(TENANT))
          .forEach(
              st -> {
                assertThat(st.getStatus()).isEqualTo(StreamStatus.STREAM_STATUS_ACTIVE);
                r.streams.put(st.getNamespace() + "/" + st.getName(), st.getVersion());
              });
      m.getPlacementsList().stream()
          .filter(p -> p.getTenant().equals(TENANT))
          .forEach(p -> r.placements.put(p.getNamespace() + "/" + p.getStream(), p.getVersion()));
      return r;
    }

    /** As the tables hold them. */
    static Resources inTables() throws Exception {
      Resources r = new Resources();
      String tenant = " WHERE tenant = '" + TENANT + "'";
      try (var c = TestDatabase.connect();
          Statement s = c.createStatement()) {
        read(s, "SELECT name, version FROM namespaces" + tenant, r.namespaces);
        read(
            s,
            "SELECT namespace || '/' || name, version FROM streams"
                + tenant
                + " AND state = 'active'",
            r.streams);
        read(
            s,
            "SELECT namespace || '/' || stream, version FROM shard_placements" + tenant,
            r.placements);
      }
      return r;
    }

    private static void read(Statement s, String sql, Map<String, Long> into) throws Exception {
      try (ResultSet rs = s.executeQuery(sql)) {
        while (rs.next()) {
          into.put(rs.getString(1), rs.getLong(2));
        }
      }
    }
  }

  /**
   * The tenant's resources after replaying the history update by update, checking the rules at each
   * version: a namespace is deleted empty, a stream is created in an existing namespace, and the
   * tenant never holds more than its quota of streams.
   */
  private static final class Replay extends Resources {

    static Replay of(List<MetadataUpdate> history) {
      Replay r = new Replay();
      String prefix = TENANT + "/";
      for (MetadataUpdate update : history) {
        String entry = MixedWrites.describe(update); // "TYPE Kind key"
        String[] parts = entry.split(" ", 3);
        if (!parts[2].startsWith(prefix)) {
          continue;
        }
        String name = parts[2].substring(prefix.length());
        Map<String, Long> map =
            switch (parts[1]) {
              case "Namespace" -> r.namespaces;
              case "Stream" -> r.streams;
              case "ShardPlacement" -> r.placements;
              default -> throw new AssertionError("unexpected " + entry);
            };
        String at = update.getVersion() + " " + entry;
        if (parts[0].equals("DELETE")) {
          assertThat(map.remove(name)).as("%s deletes what exists", at).isNotNull();
          if (parts[1].equals("Namespace")) {
            assertThat(r.streams.keySet())
                .as("%s: no stream left in it", at)
                .noneMatch(s -> s.startsWith(name + "/"));
          }
        } else {
          Long before = map.put(name, update.getVersion());
          assertThat(before == null)
              .as("%s: CREATE of what is absent, UPDATE of what exists", at)
              .isEqualTo(parts[0].equals("CREATE"));
          if (parts[1].equals("Stream")) {
            assertThat(r.namespaces)
                .as("%s: its namespace exists", at)
                .containsKey(name.substring(0, name.indexOf('/')));
            assertThat(r.streams.size())
                .as("%s: within the tenant's quota", at)
                .isLessThanOrEqualTo(MAX_STREAMS);
          }
        }
      }
      return r;
    }
  }
}
