package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import dev.controlplane.it.support.Certificates;
import dev.controlplane.it.support.Certificates.Pair;
import dev.controlplane.it.support.CpctlRunner;
import dev.controlplane.it.support.Grpc;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.LiveBrokers;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.TestCluster;
import io.grpc.TlsChannelCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.util.AdvancedTlsX509KeyManager;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * A 3-node cluster secured end to end, started once for three tests.
 *
 * <p>SERVICE_CONTROLPLANE_CLUSTER_TLS: the nodes' JGroups connections are mutual TLS and they elect
 * a leader, and a node's Raft port completes a TLS handshake only for a client presenting a
 * certificate of the cluster CA that the cluster CA's revocation list
 * (SERVICE_CONTROLPLANE_CLUSTER_CRL_PATH) does not name.
 *
 * <p>cpctl against it over HTTPS and gRPC with TLS, its context listing every node, followers
 * first: cluster status asks each node, writes over HTTP and gRPC reach the leader through a
 * follower, and a crashed node shows as unreachable (it takes a node away).
 *
 * <p>Last, that node returns with a certificate of its own, which is then revoked: the other two
 * cut it off while it runs.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterTlsIT {

  @TempDir static Path dir;
  private static Certificates certs;
  private static Pair clusterCa;
  private static Pair revoked;
  private static Path crl;
  private static TestCluster cluster;

  @BeforeAll
  static void startCluster() throws Exception {
    certs = new Certificates(dir);
    clusterCa = certs.ca("cluster-ca");
    Pair node = certs.server(clusterCa, "controlplane-node");
    revoked = certs.client(clusterCa, "cp-revoked");
    crl = certs.crl(clusterCa, dir.resolve("members.crl"), revoked);
    Map<String, String> env =
        Map.of(
            "SERVICE_CONTROLPLANE_TLS_CERT_PATH", node.cert().toString(),
            "SERVICE_CONTROLPLANE_TLS_KEY_PATH", node.key().toString(),
            "SERVICE_CONTROLPLANE_CLUSTER_TLS", "true",
            "SERVICE_CONTROLPLANE_CLUSTER_CA_CERT_PATH", clusterCa.cert().toString(),
            "SERVICE_CONTROLPLANE_CLUSTER_CRL_PATH", crl.toString(),
            "SERVICE_CONTROLPLANE_TLS_RELOAD_INTERVAL", "1s");
    cluster = TestCluster.start("cluster-tls", 3, env);
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  @Order(1)
  void membersTalkMutualTlsAndElectALeader() throws Exception {
    var leader = cluster.awaitLeader(Duration.ofSeconds(60));
    String[] raft = raftAddress(leader);
    Pair peer = certs.client(clusterCa, "cp-peer");

    assertEquals("TLSv1.3", handshake(raft, context(clusterCa, peer)));
    assertThrows(IOException.class, () -> handshake(raft, context(clusterCa, null)));
    Pair rogue = certs.client(certs.ca("rogue-ca"), "cp-peer");
    assertThrows(IOException.class, () -> handshake(raft, context(clusterCa, rogue)));
    assertThrows(IOException.class, () -> handshake(raft, context(clusterCa, revoked)));
  }

  @Test
  @Order(2)
  void cpctlClusterStatusShowsEveryNodeAndWritesSentToAFollowerReachTheLeader(@TempDir Path home)
      throws Exception {
    TestCluster.Node leader = cluster.awaitLeader(Duration.ofSeconds(60));
    List<TestCluster.Node> followers = cluster.others(leader);
    List<TestCluster.Node> order = List.of(followers.get(0), followers.get(1), leader);
    CpctlRunner cpctl =
        new CpctlRunner(home)
            .env("CPCTL_TOKEN", SharedServer.OPERATOR_TOKEN)
            .env("CPCTL_CA_FILE", clusterCa.cert().toString())
            .env(
                "CPCTL_SERVER",
                String.join(",", order.stream().map(TestCluster.Node::httpUrl).toList()))
            .env(
                "CPCTL_GRPC_SERVER",
                String.join(
                    ",", order.stream().map(n -> "https://127.0.0.1:" + n.grpcPort()).toList()));

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
    var trustCluster =
        TlsChannelCredentials.newBuilder().trustManager(clusterCa.cert().toFile()).build();
    // A broker that reports health, as brokers do: a registered broker that goes silent for three
    // heartbeats is marked down, and a down broker is not drained.
    try (LiveBrokers broker =
        new LiveBrokers(
            new Grpc(
                NettyChannelBuilder.forAddress("127.0.0.1", leader.grpcPort(), trustCluster)
                    .build(),
                SharedServer.BROKER_TOKEN),
            "clu-b")) {
      var drained = cpctl.run("brokers", "drain", "clu-b", "--dry-run");
      assertThat(drained.out()).as(drained.toString()).startsWith("broker/clu-b draining");
    }

    followers.get(1).kill();
    var degraded = cpctl.run("cluster", "status");
    assertThat(degraded.exit()).isEqualTo(1);
    assertThat(degraded.out())
        .containsPattern(followers.get(1).httpUrl().replace(".", "\\.") + " +<none> .*unreachable");
    assertThat(degraded.err()).contains("warning: 1 of 3 nodes did not answer");
  }

  /**
   * A member whose certificate is revoked while it runs loses the connections it holds, not only
   * new ones: the node test 2 took away comes back with a certificate of its own and joins; once
   * the cluster CRL lists that certificate, the other two close its connections at their next
   * reload and refuse its new ones, so it runs on without a leader while they keep theirs. Before
   * 2026-12-08 it kept its connections, and its vote, until one of them broke.
   */
  @Test
  @Order(3)
  void aMemberRevokedWhileConnectedIsCutOffAtTheOthersNextReload() throws Exception {
    TestCluster.Node returning =
        cluster.nodes().stream().filter(n -> !n.isRunning()).findFirst().orElseThrow();
    Pair own = certs.server(clusterCa, "controlplane-node-" + returning.id);
    returning.env("SERVICE_CONTROLPLANE_TLS_CERT_PATH", own.cert().toString());
    returning.env("SERVICE_CONTROLPLANE_TLS_KEY_PATH", own.key().toString());
    // Ready means it knows a leader: it joined over TLS with its own certificate.
    returning.start().awaitReady(Duration.ofSeconds(120));
    List<TestCluster.Node> others = cluster.others(returning);

    certs.crl(clusterCa, crl, own);
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!leaderKnownTo(returning).equals(Optional.of("")) && System.nanoTime() < deadline) {
      Thread.sleep(250);
    }
    assertThat(leaderKnownTo(returning))
        .as("the leader the revoked member knows, 60 s after the list changed")
        .contains("");
    Thread.sleep(3000);
    assertThat(leaderKnownTo(returning)).as("3 s later: it stays cut off").contains("");
    assertThat(returning.isRunning()).isTrue();
    var leader = cluster.awaitLeader(others, Duration.ofSeconds(30));
    assertThat(leader.id).isIn(others.get(0).id, others.get(1).id);
  }

  /** The leader {@code node}'s readiness names ("" for none); empty when it did not answer. */
  private static Optional<String> leaderKnownTo(TestCluster.Node node) {
    return node.readiness().map(data -> data.path("leader").asText());
  }

  private static String[] raftAddress(TestCluster.Node node) {
    String members = node.setting("SERVICE_CONTROLPLANE_CLUSTER_MEMBERS");
    for (String member : members.split(",")) {
      if (member.startsWith(node.id + "=")) {
        return member.substring(node.id.length() + 1).split(":");
      }
    }
    throw new IllegalStateException(node.id + " not in " + members);
  }

  /**
   * Trusts the cluster CA; presents {@code client} when given, whatever CAs the server asks for (a
   * stock JDK client would send no certificate the server did not ask for, and the test wants the
   * server itself to judge the chain).
   */
  private static SSLContext context(Pair ca, Pair client) throws Exception {
    KeyManager[] keys = null;
    if (client != null) {
      var insisting = new AdvancedTlsX509KeyManager();
      insisting.updateIdentityCredentials(client.cert().toFile(), client.key().toFile());
      keys = new KeyManager[] {insisting};
    }
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keys, Certificates.trustManagers(ca.cert()), null);
    return context;
  }

  /**
   * The negotiated protocol once the server has accepted the client. In TLS 1.3 the client's side
   * of the handshake ends before the server has checked the client's certificate, so the test then
   * reads: a refusal arrives as a TLS alert (an SSLException); an accepted connection stays silent
   * (JGroups waits for the peer's address) until JGroups closes it for saying nothing (end of
   * stream) or the read times out.
   */
  private static String handshake(String[] address, SSLContext context) throws IOException {
    try (SSLSocket socket =
        (SSLSocket)
            context.getSocketFactory().createSocket(address[0], Integer.parseInt(address[1]))) {
      socket.setSoTimeout(3000);
      socket.startHandshake();
      try {
        socket.getInputStream().read(); // -1: accepted, then closed for silence
      } catch (java.net.SocketTimeoutException acceptedAndWaiting) {
        // the server kept the connection: accepted
      }
      return socket.getSession().getProtocol();
    }
  }
}
