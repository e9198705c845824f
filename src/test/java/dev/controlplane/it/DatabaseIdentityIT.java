package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.controlplane.it.support.ElectionCluster;
import dev.controlplane.it.support.TestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * A node whose SERVICE_CONTROLPLANE_DB_URL names another database than the other nodes' (migration
 * V11's {@code database_id}): it is never elected, and it stops once a majority of the members
 * shows that its database is not the cluster's. The product's election layer in real JVMs ({@link
 * dev.controlplane.it.support.ElectionNode}); ClusterIT starts a whole server that way.
 */
class DatabaseIdentityIT {

  private static final Duration ELECTION = Duration.ofSeconds(15);

  /** Another migrated database, as a mistyped database name on the same server would reach. */
  private static String otherDatabase() throws Exception {
    String url = TestDatabase.url(TestDatabase.name() + "_other");
    TestDatabase.resetAndMigrate(url);
    return url;
  }

  @Test
  void aNodeOnAnotherDatabaseIsNeverElectedAndStopsWhenAMajorityShowsItIsNotTheClusters()
      throws Exception {
    String other = otherDatabase();
    try (ElectionCluster cluster = ElectionCluster.create("other-database", 3)) {
      cluster.useDatabase("cp3", other);
      List<String> firstTwo = new ArrayList<>(List.of("cp1", "cp3"));
      Collections.shuffle(firstTwo);
      for (String id : firstTwo) {
        cluster.start(id);
      }
      // Two of three members: a majority for Raft, but not for either database.
      awaitOnOtherDatabase(cluster, "cp1", List.of("cp3"));
      awaitOnOtherDatabase(cluster, "cp3", List.of("cp1"));
      long until = System.nanoTime() + 3 * 1_500_000_000L; // three voting rounds
      while (System.nanoTime() < until) {
        for (Map.Entry<String, JsonNode> status : cluster.statuses().entrySet()) {
          // Not elected by Raft either: no node names a leader that could not lead.
          assertThat(status.getValue().path("leader").isNull())
              .as("%s while no database has a majority: %s", status.getKey(), cluster.describe())
              .isTrue();
          assertThat(status.getValue().path("role").asText()).isNotEqualTo("leader");
        }
        Thread.sleep(100);
      }

      cluster.start("cp2");
      OptionalInt exit = cluster.awaitExit("cp3", ELECTION);
      assertThat(exit).as("cp3's exit; its log:%n%s", cluster.logTail("cp3")).hasValue(3);
      assertThat(cluster.logTail("cp3"))
          .contains("uses another database than the cluster")
          .contains("SERVICE_CONTROLPLANE_DB_URL")
          .contains("[cp1, cp2]");
      Optional<String> leader = awaitLeader(cluster, List.of("cp1", "cp2"));
      assertThat(leader).as(cluster.describe()).isPresent();
      assertThat(leaderTerm(ElectionCluster.dbUrl())).isPositive();
      assertThat(leaderTerm(other)).as("terms claimed in cp3's database").isZero();

      // Corrected, it joins and the cluster keeps its leader.
      cluster.useDatabase("cp3", ElectionCluster.dbUrl());
      cluster.start("cp3");
      assertThat(awaitLeader(cluster, cluster.ids())).isEqualTo(leader);
      for (String id : cluster.ids()) {
        awaitOnOtherDatabase(cluster, id, List.of());
      }
    }
  }

  @Test
  void aNodeWhoseDatabaseIsReplacedWhileItRunsStops() throws Exception {
    try (ElectionCluster cluster = ElectionCluster.create("replaced-database", 3)) {
      for (String id : cluster.ids()) {
        cluster.start(id);
      }
      assertThat(awaitLeader(cluster, cluster.ids())).as(cluster.describe()).isPresent();
      // What a host list or DNS name that now resolves to another database looks like to a node.
      try (Connection c =
              DriverManager.getConnection(
                  ElectionCluster.dbUrl(), TestDatabase.USER, TestDatabase.PASSWORD);
          Statement s = c.createStatement()) {
        s.executeUpdate("UPDATE cluster_state SET database_id = gen_random_uuid()");
      }
      for (String id : cluster.ids()) {
        OptionalInt exit = cluster.awaitExit(id, ELECTION);
        assertThat(exit).as("%s's exit; its log:%n%s", id, cluster.logTail(id)).hasValue(3);
        assertThat(cluster.logTail(id))
            .contains("now reach database id")
            .contains("SERVICE_CONTROLPLANE_DB_URL");
      }
    }
  }

  private static void awaitOnOtherDatabase(
      ElectionCluster cluster, String id, List<String> expected) throws InterruptedException {
    long deadline = System.nanoTime() + ELECTION.toNanos();
    List<String> seen = null;
    while (System.nanoTime() < deadline) {
      Optional<JsonNode> status = cluster.status(id);
      if (status.isPresent()) {
        List<String> now = new ArrayList<>();
        status.get().path("members_on_other_database").forEach(n -> now.add(n.asText()));
        Collections.sort(now);
        if (now.equals(expected)) {
          return;
        }
        seen = now;
      }
      Thread.sleep(100);
    }
    throw new AssertionError(
        id
            + " names "
            + seen
            + " on another database, not "
            + expected
            + ": "
            + cluster.logTail(id));
  }

  private static Optional<String> awaitLeader(ElectionCluster cluster, List<String> among)
      throws InterruptedException {
    long deadline = System.nanoTime() + ELECTION.toNanos();
    while (System.nanoTime() < deadline) {
      Optional<String> leader = cluster.agreedLeader(among);
      if (leader.isPresent()) {
        return leader;
      }
      Thread.sleep(100);
    }
    return Optional.empty();
  }

  private static long leaderTerm(String url) throws Exception {
    try (Connection c = DriverManager.getConnection(url, TestDatabase.USER, TestDatabase.PASSWORD);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT leader_term FROM cluster_state")) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
