package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.TestCluster;
import dev.controlplane.it.support.TestCluster.Node;
import dev.controlplane.it.support.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The other recommended size: five real JVMs on loopback, where a majority is three. Two nodes, the
 * leader among them, may crash and writes go on; a third crash stops them.
 */
class FiveNodeClusterIT {

  private static final Duration ELECTION = Duration.ofSeconds(60);

  @Test
  void twoOfFiveNodesMayCrashWithoutStoppingWritesButNotThree() throws Exception {
    try (TestCluster cluster = TestCluster.start("five", 5, Map.of())) {
      Node leader = cluster.awaitLeader(ELECTION);
      assertThat(leader.http().put("/v1/tenants/five-a", Http.tenant("five-a", "x")).status())
          .isEqualTo(201);

      List<Node> survivors = new ArrayList<>(cluster.others(leader));
      Node follower = survivors.remove(0);
      leader.kill();
      follower.kill();
      Node next = cluster.awaitLeader(survivors, ELECTION);
      Http.awaitStatus(
          () -> next.http().put("/v1/tenants/five-b", Http.tenant("five-b", "x")).status(),
          201,
          ELECTION);
      for (Node n : survivors) {
        assertThat(n.http().get("/v1/tenants/five-b").status())
            .as("every survivor reads the write")
            .isEqualTo(200);
      }

      survivors.remove(next);
      next.kill();
      for (Node n : survivors) {
        // A follower refuses writes anyway; without a majority it knows no leader at all, and
        // refuses admin reads too.
        Http.awaitStatus(() -> n.http().get("/v1/tenants").status(), 503, ELECTION);
        assertThat(n.readiness().orElseThrow().path("role").asText()).isEqualTo("candidate");
        Http.Reply write = n.http().put("/v1/tenants/five-c", Http.tenant("five-c", "x"));
        assertThat(write.status()).isEqualTo(503);
        assertThat(write.json().path("leader").isMissingNode()).as(write.body()).isTrue();
      }
      assertThat(
              TestDatabase.queryLong(
                  TestCluster.dbUrl(), "SELECT count(*) FROM tenants WHERE name = 'five-c'"))
          .as("nothing was written without a majority")
          .isZero();
    }
  }
}
