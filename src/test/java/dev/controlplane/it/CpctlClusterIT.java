package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.controlplane.it.support.CpctlRunner;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.TestCluster;
import dev.controlplane.proto.v1.RegisterBrokerRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * cpctl against a real 3-node cluster whose context lists every node, followers first: cluster
 * status asks each node, writes over HTTP and gRPC reach the leader through a follower, and a
 * crashed node shows as unreachable.
 */
class CpctlClusterIT {

  @Test
  void clusterStatusShowsEveryNodeAndWritesSentToAFollowerReachTheLeader(@TempDir Path home)
      throws Exception {
    try (TestCluster cluster = TestCluster.start("cpctl", 3, Map.of())) {
      TestCluster.Node leader = cluster.awaitLeader(Duration.ofSeconds(60));
      List<TestCluster.Node> followers = cluster.others(leader);
      List<TestCluster.Node> order = List.of(followers.get(0), followers.get(1), leader);
      CpctlRunner cpctl =
          new CpctlRunner(home)
              .env("CPCTL_TOKEN", SharedServer.OPERATOR_TOKEN)
              .env(
                  "CPCTL_SERVER",
                  String.join(",", order.stream().map(TestCluster.Node::httpUrl).toList()))
              .env(
                  "CPCTL_GRPC_SERVER",
                  String.join(",", order.stream().map(n -> "127.0.0.1:" + n.grpcPort()).toList()));

      var status = cpctl.run("cluster", "status", "-o", "json");
      assertThat(status.exit()).as(status.toString()).isZero();
      JsonNode nodes = Http.JSON.readTree(status.out());
      assertThat(nodes).hasSize(3);
      Set<String> ids = new HashSet<>();
      Set<Long> terms = new HashSet<>();
      int leaders = 0;
      for (JsonNode node : nodes) {
        ids.add(node.path("node_id").asText());
        terms.add(node.path("term").asLong());
        assertThat(node.path("leader").asText()).isEqualTo(leader.id);
        assertThat(node.path("lag").asLong()).isGreaterThanOrEqualTo(0);
        leaders += node.path("role").asText().equals("leader") ? 1 : 0;
      }
      assertThat(ids).containsExactlyInAnyOrder("cp1", "cp2", "cp3");
      assertThat(terms).hasSize(1);
      assertThat(leaders).isEqualTo(1);
      assertThat(nodes.get(2).path("role").asText()).isEqualTo("leader");

      var applied =
          cpctl.pipe(
              "apiVersion: controlplane/v1\nkind: Tenant\nmetadata: {name: clu}\n",
              "apply",
              "-f",
              "-");
      assertThat(applied.lines()).as(applied.toString()).containsExactly("tenant/clu created");
      try (var grpc = leader.grpc()) {
        grpc.brokers()
            .registerBroker(
                RegisterBrokerRequest.newBuilder()
                    .setBrokerId("clu-b")
                    .setAddress("127.0.0.1:7500")
                    .build());
      }
      var drained = cpctl.run("brokers", "drain", "clu-b", "--dry-run");
      assertThat(drained.out()).as(drained.toString()).startsWith("broker/clu-b draining");

      followers.get(1).kill();
      var degraded = cpctl.run("cluster", "status");
      assertThat(degraded.exit()).isEqualTo(1);
      assertThat(degraded.out())
          .containsPattern(
              followers.get(1).httpUrl().replace(".", "\\.") + " +<none> .*unreachable");
      assertThat(degraded.err()).contains("warning: 1 of 3 nodes did not answer");
    }
  }
}
