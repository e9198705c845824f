package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.it.support.Grpc;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.Metrics;
import dev.controlplane.it.support.Snapshots;
import dev.controlplane.it.support.TestCluster;
import dev.controlplane.it.support.TestCluster.Node;
import dev.controlplane.it.support.TestDatabase;
import dev.controlplane.it.support.WatchCollector;
import dev.controlplane.it.support.Writers;
import dev.controlplane.proto.v1.MetadataUpdate;
import io.grpc.Status;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A follower paused (SIGSTOP: a long GC pause, a stalled VM) while the leader writes on and the
 * retention trims the change log past the last version the follower read. Thawed, it can no longer
 * read on from where it stopped: it must reload its image from the tables, serve the leader's
 * snapshots and updates again, and end a watch that resumes inside the trimmed history with
 * OUT_OF_RANGE (take a new snapshot) instead of a gap. Three real nodes; the retention keeps only
 * 100 versions, trimmed every second.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LaggingFollowerIT {

  private static final Duration SETTLE = Duration.ofSeconds(60);
  private static final String TENANT = "lagging";
  private static final String RELOADS = "controlplane_image_reloads_total";

  private TestCluster cluster;

  @BeforeAll
  void startCluster() throws Exception {
    cluster =
        TestCluster.start(
            "lagging", 3, Map.of("SERVICE_CONTROLPLANE_RETENTION_MIN_VERSIONS", "100"));
  }

  @AfterAll
  void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void aFollowerPausedPastTheRetainedLogReloadsItsImageServesTheLeadersStateAndEndsStaleWatches()
      throws Exception {
    Node leader = cluster.awaitLeader(SETTLE);
    Node follower = cluster.others(leader).get(0);
    long paused = leader.http().writeNamespaces(TENANT, 5, 5);

    try (Grpc onFollower = follower.grpc();
        Grpc onLeader = leader.grpc()) {
      Snapshots.takeOnceCaughtUp(follower, paused, SETTLE);
      WatchCollector resuming = WatchCollector.open(onFollower.metadataAsync(), paused);
      WatchCollector reference = WatchCollector.open(onLeader.metadataAsync(), paused);
      // Calls start asynchronously: only a first progress message proves each watch is open on its
      // node before the writes (and the trimming) begin.
      for (WatchCollector open : List.of(resuming, reference)) {
        assertThat(open.awaitProgress(SETTLE)).as("the watch opened: %s", open.state()).isTrue();
      }
      double reloadsBefore = metric(follower, RELOADS);

      long head;
      follower.freeze();
      try {
        Writers.runConcurrently(
            8,
            writer -> {
              for (int i = 0; i < 40; i++) {
                String ns = "w" + writer + "-" + (i % 5);
                Http.Reply reply =
                    leader
                        .http()
                        .put(
                            "/v1/tenants/" + TENANT + "/namespaces/" + ns,
                            Http.namespace(TENANT, ns, "while paused " + i));
                assertThat(reply.status()).as(reply.body()).isIn(200, 201);
              }
            });
        // Until the retention has trimmed all it will (to the last 100 versions), so that what is
        // retained below stays so until more writes.
        head = clusterHead();
        awaitRetainedFromAbove(head - 100);
      } finally {
        follower.thaw();
      }
      assertThat(retainedFrom()).as("trimmed past the paused follower").isGreaterThan(paused + 1);
      assertThat(head - paused).as("versions written while the follower was paused").isEqualTo(320);

      Status ended = resuming.awaitClose(SETTLE);
      assertThat(ended.getCode())
          .as("a watch resuming inside the trimmed history: %s", ended)
          .isEqualTo(Status.Code.OUT_OF_RANGE);
      assertThat(ended.getDescription()).contains("take a new snapshot");
      assertThat(resuming.updates()).as("updates after the trimmed gap").isEmpty();

      Snapshots.Snapshot served = Snapshots.takeOnceCaughtUp(follower, head, SETTLE);
      Snapshots.assertSameMetadata(
          served.metadata(),
          Snapshots.take(onLeader, head).metadata(),
          "the thawed follower against the leader at " + head);
      assertThat(metric(follower, RELOADS)).isEqualTo(reloadsBefore + 1);
      assertThat(follower.process().logText())
          .contains("reloaded the metadata image from the tables at version");

      // Watches on the thawed follower go on from what is retained, as the leader's do. The watch
      // reads the retained part before more writes move the retention on.
      long retainedFrom = retainedFrom();
      WatchCollector fromRetained = WatchCollector.open(onFollower.metadataAsync(), retainedFrom);
      try {
        assertThat(fromRetained.awaitVersion(head, SETTLE))
            .as("the follower's watch from version %d: %s", retainedFrom, fromRetained.state())
            .isTrue();
        Node writer = cluster.awaitLeader(SETTLE);
        long last = writer.http().writeNamespaces(TENANT, 20, 5);
        assertThat(reference.awaitVersion(last, SETTLE))
            .as("the leader's watch: %s", reference.state())
            .isTrue();
        assertThat(fromRetained.awaitVersion(last, SETTLE))
            .as("the follower's watch from version %d: %s", retainedFrom, fromRetained.state())
            .isTrue();
        List<MetadataUpdate> expected =
            reference.updates().stream()
                .filter(u -> u.getVersion() > retainedFrom && u.getVersion() <= last)
                .toList();
        assertThat(expected).hasSize((int) (last - retainedFrom));
        assertThat(fromRetained.updates().stream().filter(u -> u.getVersion() <= last).toList())
            .isEqualTo(expected);
        // A past version is undone from the reloaded image with the log after it.
        long past = last - 50;
        Snapshots.assertSameMetadata(
            Snapshots.take(onFollower, past).metadata(),
            Snapshots.take(onLeader, past).metadata(),
            "the thawed follower against the leader at " + past);
      } finally {
        fromRetained.close();
        reference.close();
      }
    }
  }

  private static void awaitRetainedFromAbove(long version) throws Exception {
    long deadline = System.nanoTime() + SETTLE.toNanos();
    while (retainedFrom() <= version) {
      assertThat(System.nanoTime())
          .as("the retention trims the change log past version %d", version)
          .isLessThan(deadline);
      Thread.sleep(200);
    }
  }

  private static long retainedFrom() throws SQLException {
    return TestDatabase.queryLong(
        TestCluster.dbUrl(), "SELECT retained_from FROM cluster_state WHERE id = 1");
  }

  private static long clusterHead() throws SQLException {
    return TestDatabase.queryLong(
        TestCluster.dbUrl(), "SELECT metadata_version FROM cluster_state WHERE id = 1");
  }

  private static double metric(Node node, String name) {
    return Metrics.valueIn(Metrics.scrape(node.httpPort()), name, "");
  }
}
