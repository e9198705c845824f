package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.controlplane.it.support.CpctlRunner;
import dev.controlplane.it.support.Grpc;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.LiveBrokers;
import dev.controlplane.it.support.MixedWrites;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.Snapshots;
import dev.controlplane.it.support.TestCluster;
import dev.controlplane.it.support.TestCluster.Node;
import dev.controlplane.it.support.TestDatabase;
import dev.controlplane.it.support.WatchCollector;
import dev.controlplane.proto.v1.AdminServiceGrpc;
import dev.controlplane.proto.v1.MetadataUpdate;
import dev.controlplane.proto.v1.RegisterBrokerRequest;
import dev.controlplane.proto.v1.ReportHealthRequest;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three real nodes (runnable JARs), started together in a random order, electing a leader with
 * jgroups-raft over loopback and sharing one PostgreSQL database: what followers answer, a frozen
 * leader fenced off, quorum loss, and every node serving the leader's updates and snapshots after
 * colliding writes. The tests run in order on one cluster and each leaves all three nodes running,
 * but for one whose stopped node the next test starts. Waits are generous (a loaded 2-core
 * machine); timings are printed, never asserted. Crashes, partitions and database faults under
 * load: ClusterFaultIT.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterIT {

  private static final Duration ELECTION = Duration.ofSeconds(60);
  private static final Duration START = Duration.ofSeconds(240);
  private static final Metadata.Key<String> X_LEADER =
      Metadata.Key.of("x-leader", Metadata.ASCII_STRING_MARSHALLER);

  private TestCluster cluster;

  /**
   * A follower a restart test edits, left stopped by the test before it: the next one starts it.
   */
  private Node stoppedFollower;

  /** Configured on every node, but bootstrap is not enabled: nothing may listen there. */
  private final int bootstrapPort = dev.controlplane.it.support.Ports.free();

  @BeforeAll
  void startCluster() throws Exception {
    cluster =
        TestCluster.start(
            "cluster",
            3,
            Map.of(
                "SERVICE_BOOTSTRAP_BIND_ADDR",
                "127.0.0.1:" + bootstrapPort,
                "SERVICE_BOOTSTRAP_TOKEN",
                SharedServer.BOOTSTRAP_TOKEN));
  }

  @AfterAll
  void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  @Order(1)
  void exactlyOneLeaderIsElectedAndFollowersReferWritesToIt() throws Exception {
    Node leader = cluster.awaitLeader(ELECTION);
    Node follower = cluster.others(leader).get(0);

    Http.Reply refused = follower.http().put("/v1/tenants/refer-me", Http.tenant("refer-me", "x"));
    assertThat(refused.status()).isEqualTo(503);
    assertThat(refused.json().path("code").asText()).isEqualTo("not_leader");
    assertThat(refused.json().path("leader").asText()).isEqualTo(leader.id);
    assertThat(refused.raw().headers().firstValue("Location"))
        .contains(leader.httpUrl() + "/v1/tenants/refer-me");

    // Bootstrap is disabled by default: its listener does not exist, and the main port does not
    // serve the endpoint either.
    assertThatThrownBy(() -> new java.net.Socket("127.0.0.1", bootstrapPort).close())
        .isInstanceOf(java.net.ConnectException.class);
    Http.Reply onMainPort =
        leader
            .http()
            .send(
                leader
                    .http()
                    .request("/internal/bootstrap/tenants/sneaky/initialize")
                    .POST(HttpRequest.BodyPublishers.ofString("{}"))
                    .header("Content-Type", "application/json")
                    .header("X-Service-Bootstrap-Token", SharedServer.BOOTSTRAP_TOKEN));
    assertThat(onMainPort.status()).isEqualTo(404);

    Http.Reply written = leader.http().put("/v1/tenants/refer-me", Http.tenant("refer-me", "x"));
    assertThat(written.status()).isEqualTo(201);
    assertThat(follower.http().get("/v1/tenants/refer-me").status())
        .as("reads are served by followers")
        .isEqualTo(200);

    try (Grpc grpc = follower.grpc()) {
      RegisterBrokerRequest register =
          RegisterBrokerRequest.newBuilder()
              .setBrokerId("cluster-b1")
              .setAddress("127.0.0.1:1")
              .build();
      assertRefusedNamingLeader(() -> grpc.brokers().registerBroker(register), leader);
      ReportHealthRequest health =
          ReportHealthRequest.newBuilder().setBrokerId("cluster-b1").build();
      assertRefusedNamingLeader(() -> grpc.brokers().reportHealth(health), leader);
    }
    long leaders =
        cluster.nodes().stream()
            .filter(n -> n.readiness().orElseThrow().path("role").asText().equals("leader"))
            .count();
    assertThat(leaders).isEqualTo(1);
  }

  private static void assertRefusedNamingLeader(Runnable call, Node leader) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
              assertThat(Status.trailersFromThrowable(e).get(X_LEADER))
                  .isEqualTo("127.0.0.1:" + leader.grpcPort());
            });
  }

  /**
   * The fence covers every table, not only the change log: after SIGCONT the old leader still
   * believes for a moment that it leads, and a tenant write, an RBAC policy, an issuer, a key
   * rotation and a broker heartbeat sent to it meanwhile must all be refused, with nothing stored.
   */
  @Test
  @Order(2)
  void aFrozenLeaderIsReplacedAndNoWriteOfAnyTableItTakesAfterThawingIsStored() throws Exception {
    Node old = cluster.awaitLeader(ELECTION);
    assertThat(old.http().put("/v1/tenants/fence-all", Http.tenant("fence-all", "x")).status())
        .isEqualTo(201);
    try (Grpc grpc = old.grpc()) {
      grpc.brokers()
          .registerBroker(
              RegisterBrokerRequest.newBuilder()
                  .setBrokerId("fence-b1")
                  .setAddress("127.0.0.1:1")
                  .build());
    }
    String heartbeatBefore = lastHeartbeat("fence-b1");
    old.freeze();
    long frozenAt = System.nanoTime();
    Node next;
    List<CompletableFuture<HttpResponse<String>>> pending = new ArrayList<>();
    CompletableFuture<Status> heartbeat;
    Grpc toOld = old.grpc();
    try {
      next = cluster.awaitLeader(cluster.others(old), ELECTION);
      System.out.printf(
          "frozen leader %s replaced by %s after %d ms%n", old.id, next.id, millisSince(frozenAt));
      // Sent while the old leader is frozen: the kernel accepts the connections, the server reads
      // the requests only after SIGCONT, still believing for a moment that it leads.
      pending.add(send(old, "PUT", "/v1/tenants/fenced-off", Http.tenant("fenced-off", "stale")));
      pending.add(
          send(
              old,
              "POST",
              "/v1/tenants/fence-all/rbac/policies",
              "{\"subject\":\"role:fenced\",\"object\":\"tenant:fence-all\","
                  + "\"action\":\"tenant.manage\"}"));
      pending.add(
          send(
              old,
              "POST",
              "/v1/tenants/fence-all/idp-issuers",
              "{\"issuer\":\"http://127.0.0.1:1/fenced\",\"audiences\":[\"a\"],"
                  + "\"jwks_url\":\"http://127.0.0.1:1/jwks\"}"));
      pending.add(send(old, "POST", "/v1/tenants/fence-all/signing-keys/rotate", ""));
      heartbeat =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  toOld
                      .brokers()
                      .withDeadlineAfter(90, TimeUnit.SECONDS)
                      .reportHealth(
                          ReportHealthRequest.newBuilder().setBrokerId("fence-b1").build());
                  return Status.OK;
                } catch (StatusRuntimeException e) {
                  return e.getStatus();
                }
              });
      Thread.sleep(500);
    } finally {
      old.thaw();
    }
    for (CompletableFuture<HttpResponse<String>> call : pending) {
      HttpResponse<String> response = call.get(90, TimeUnit.SECONDS);
      assertThat(response.statusCode())
          .as(response.request().uri() + " " + response.body())
          .isEqualTo(503);
      // not_leader: its term was superseded (or Raft told it first); unavailable: it briefly saw
      // no leader.
      assertThat(Http.JSON.readTree(response.body()).path("code").asText())
          .isIn("not_leader", "unavailable");
      System.out.println(
          "write sent to the frozen leader, answered after SIGCONT: " + response.body());
    }
    assertThat(heartbeat.get(90, TimeUnit.SECONDS).getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    toOld.close();
    String db = TestCluster.dbUrl();
    assertThat(TestDatabase.queryLong(db, "SELECT count(*) FROM tenants WHERE name = 'fenced-off'"))
        .isZero();
    assertThat(
            TestDatabase.queryLong(
                db, "SELECT count(*) FROM rbac_policies WHERE subject = 'role:fenced'"))
        .isZero();
    assertThat(
            TestDatabase.queryLong(
                db, "SELECT count(*) FROM idp_issuers WHERE tenant = 'fence-all'"))
        .isZero();
    assertThat(
            TestDatabase.queryLong(
                db, "SELECT count(*) FROM signing_keys WHERE tenant = 'fence-all'"))
        .as("only the key the tenant was created with: the rotation stored no next key")
        .isEqualTo(1);
    assertThat(lastHeartbeat("fence-b1")).as("no heartbeat recorded").isEqualTo(heartbeatBefore);

    assertThat(cluster.awaitLeader(cluster.nodes(), ELECTION))
        .as("the old leader rejoins as a follower")
        .isEqualTo(next);
    assertThat(
            next.http().put("/v1/tenants/after-freeze", Http.tenant("after-freeze", "x")).status())
        .isEqualTo(201);
  }

  private static CompletableFuture<HttpResponse<String>> send(
      Node node, String method, String path, String body) {
    return HttpClient.newHttpClient()
        .sendAsync(
            HttpRequest.newBuilder(URI.create(node.httpUrl() + path))
                .timeout(Duration.ofSeconds(90))
                .header("Authorization", "Bearer " + SharedServer.OPERATOR_TOKEN)
                .header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  private static String lastHeartbeat(String broker) throws Exception {
    try (var c =
            java.sql.DriverManager.getConnection(
                TestCluster.dbUrl(), TestDatabase.USER, TestDatabase.PASSWORD);
        var ps =
            c.prepareStatement(
                "SELECT last_heartbeat_at::text FROM broker_health WHERE broker = ?")) {
      ps.setString(1, broker);
      try (var rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }

  /**
   * Two of three nodes gone. They are frozen (SIGSTOP), not killed: to the node left alone the two
   * are the same, silent peers, and thawing them spares two server starts; a node that rejoins
   * after a restart is the next tests' edited node.
   */
  @Test
  @Order(3)
  void withoutAQuorumWritesAndAdminReadsFailCleanlyWatchesStayOpenAndWritesResumeWithOneNodeBack()
      throws Exception {
    Node leader = cluster.awaitLeader(ELECTION);
    Node other = cluster.others(leader).get(0);
    Node alone = cluster.others(leader).get(1);
    long from =
        TestDatabase.queryLong(TestCluster.dbUrl(), "SELECT metadata_version FROM cluster_state");
    try (Grpc grpc = alone.grpc();
        WatchCollector watch = WatchCollector.open(grpc.metadataAsync(), from)) {
      leader.freeze();
      other.freeze();
      Http http = alone.http();
      Http.awaitStatus(() -> http.get("/v1/tenants").status(), 503, Duration.ofSeconds(60));
      Http.Reply write = http.put("/v1/tenants/no-quorum", Http.tenant("no-quorum", "x"));
      assertThat(write.status()).isEqualTo(503);
      assertThat(write.contentType()).startsWith("application/problem+json");
      assertThat(write.raw().headers().firstValue("Retry-After")).isPresent();
      assertThat(alone.readiness().orElseThrow().path("role").asText()).isEqualTo("candidate");

      int progressBefore = watch.progressVersions().size();
      assertThatThrownBy(() -> watch.awaitClose(Duration.ofSeconds(3)))
          .isInstanceOf(java.util.concurrent.TimeoutException.class);
      assertThat(watch.progressVersions().size())
          .as("the open watch still gets progress notices")
          .isGreaterThan(progressBefore);

      other.thaw();
      Node newLeader = cluster.awaitLeader(List.of(alone, other), ELECTION);
      Http.awaitStatus(
          () ->
              newLeader
                  .http()
                  .put("/v1/tenants/quorum-back", Http.tenant("quorum-back", "x"))
                  .status(),
          201,
          ELECTION);
      long version = newLeader.http().get("/v1/tenants/quorum-back").version();
      assertThat(watch.awaitVersion(version, Duration.ofSeconds(30))).isTrue();
    } finally {
      other.thaw();
      leader.thaw();
    }
    cluster.awaitLeader(cluster.nodes(), ELECTION);
  }

  @Test
  @Order(4)
  void everyNodeServesTheLeadersUpdatesAndSnapshotsAfterCollidingWrites() throws Exception {
    Node leader = cluster.awaitLeader(ELECTION);
    String tenant = "cluster-mixed";
    assertThat(
            leader
                .http()
                .put("/v1/tenants/" + tenant, MixedWrites.tenantDocument(tenant, 4))
                .status())
        .isIn(200, 201);
    long start =
        TestDatabase.queryLong(TestCluster.dbUrl(), "SELECT metadata_version FROM cluster_state");
    Map<Node, Grpc> clients = new LinkedHashMap<>();
    Map<Node, WatchCollector> watches = new LinkedHashMap<>();
    MixedWrites answers;
    try {
      for (Node node : cluster.nodes()) {
        Grpc grpc = node.grpc();
        clients.put(node, grpc);
        watches.put(node, WatchCollector.open(grpc.metadataAsync(), start));
      }
      List<String> brokerNames = List.of("cluster-mixed-b1", "cluster-mixed-b2");
      try (Grpc operator = new Grpc(leader.grpcPort(), SharedServer.OPERATOR_TOKEN);
          LiveBrokers brokers =
              new LiveBrokers(leader.grpc(), brokerNames.toArray(String[]::new))) {
        MixedWrites writes =
            new MixedWrites(
                tenant, AdminServiceGrpc.newBlockingStub(operator.channel()), brokerNames, 4, 2, 3);
        writes.run(leader.http(), 8, Duration.ofSeconds(8), System.nanoTime());
        answers = writes;
      }
      long head =
          TestDatabase.queryLong(TestCluster.dbUrl(), "SELECT metadata_version FROM cluster_state");

      List<MetadataUpdate> leaders = history(watches.get(leader), head);
      assertThat(leaders).hasSize((int) (head - start));
      Map<Long, String> described = new java.util.TreeMap<>();
      for (int i = 0; i < leaders.size(); i++) {
        assertThat(leaders.get(i).getVersion()).as("gapless").isEqualTo(start + 1 + i);
        described.put(leaders.get(i).getVersion(), MixedWrites.describe(leaders.get(i)));
      }
      answers.assertAnswersMatch(described);
      for (Node follower : cluster.others(leader)) {
        assertThat(history(watches.get(follower), head))
            .as("the updates %s's watch delivered", follower.id)
            .isEqualTo(leaders);
      }
      // The head comes from each node's image; a past version is undone from it (halfway back, at
      // most 1,000 versions: the nodes here retain 3,000).
      long past = head - Math.min((head - start) / 2, 1000);
      for (long version : List.of(head, past)) {
        Snapshots.Snapshot expected = Snapshots.take(clients.get(leader), version);
        assertThat(expected.version()).isEqualTo(version);
        for (Node follower : cluster.others(leader)) {
          Snapshots.Snapshot served = Snapshots.take(clients.get(follower), version);
          assertThat(served.version()).isEqualTo(version);
          Snapshots.assertSameMetadata(
              served.metadata(), expected.metadata(), follower.id + " at " + version);
        }
      }
      // Bridge, the kind added last, reaches the followers' images like the others.
      var bridge =
          leader
              .http()
              .put(
                  "/v1/bridges/cluster-bridge",
                  "{\"apiVersion\":\"controlplane/v1\",\"kind\":\"Bridge\",\"spec\":"
                      + "{\"source_region\":\"eu\",\"target_region\":\"us\"}}");
      assertThat(bridge.status()).as(bridge.body()).isEqualTo(201);
      for (Node follower : cluster.others(leader)) {
        var served = Snapshots.takeOnceCaughtUp(follower, bridge.version(), Duration.ofSeconds(10));
        assertThat(served.metadata().getBridgesList())
            .as("%s's snapshot at the bridge's version", follower.id)
            .extracting(dev.controlplane.proto.v1.Bridge::getName)
            .containsExactly("cluster-bridge");
      }
    } finally {
      watches.values().forEach(WatchCollector::close);
      clients.values().forEach(Grpc::close);
    }
  }

  /**
   * The database name mistyped on one node: the server migrates that other database and would serve
   * its empty metadata. The node's database id (migration V11) differs from the other two nodes',
   * which are a majority, so it stops with status 3 and a message naming the setting; it never
   * claims leadership in its database, and the cluster keeps its leader. The node is left stopped:
   * the next test starts it again, with a mistyped member list (a start fewer in the suite).
   */
  @Test
  @Order(5)
  void aNodeRestartedOnAnotherDatabaseStopsWithAMessageAndTheClusterKeepsItsLeader()
      throws Exception {
    Node leader = cluster.awaitLeader(ELECTION);
    Node edited = stoppedFollower(leader);
    String url = edited.setting("SERVICE_CONTROLPLANE_DB_URL");
    String other = TestDatabase.url(TestDatabase.name() + "_other");
    TestDatabase.reset(other);

    try {
      edited.startWith("SERVICE_CONTROLPLANE_DB_URL", other);
      assertThat(edited.awaitStopped(START)).as(edited.process().tail()).isEqualTo(3);
      assertThat(edited.process().logText())
          .contains("control plane cannot run: node " + edited.id + " uses another database")
          .contains(
              "SERVICE_CONTROLPLANE_DB_URL reaches database '" + TestDatabase.name() + "_other'")
          .contains(cluster.others(edited).stream().map(n -> n.id).sorted().toList().toString());
      try (java.sql.Connection c =
              java.sql.DriverManager.getConnection(
                  other, TestDatabase.USER, TestDatabase.PASSWORD);
          java.sql.Statement s = c.createStatement();
          java.sql.ResultSet rs = s.executeQuery("SELECT leader_term FROM cluster_state")) {
        rs.next();
        assertThat(rs.getLong(1)).as("terms claimed in the other database").isZero();
      }
      assertThat(cluster.awaitLeader(cluster.others(edited), ELECTION)).isEqualTo(leader);
    } finally {
      if (edited.isRunning()) {
        edited.kill();
      }
      edited.env("SERVICE_CONTROLPLANE_DB_URL", url);
      stoppedFollower = edited;
    }
  }

  @Test
  @Order(6)
  void aNodeRestartedWithAMistypedMemberListIsNamedByEveryNodeAndByCpctl(@TempDir Path home)
      throws Exception {
    Node leader = cluster.awaitLeader(ELECTION);
    Node edited = stoppedFollower(leader);
    String members = edited.setting("SERVICE_CONTROLPLANE_CLUSTER_MEMBERS");
    // The leader's port mistyped in the edited node's list: the node still finds the cluster
    // through the other members, so nothing but the check would show the difference.
    String mistyped =
        java.util.Arrays.stream(members.split(","))
            .map(
                entry -> {
                  if (!entry.startsWith(leader.id + "=")) {
                    return entry;
                  }
                  int colon = entry.lastIndexOf(':');
                  return entry.substring(0, colon + 1)
                      + (Integer.parseInt(entry.substring(colon + 1)) + 1);
                })
            .collect(java.util.stream.Collectors.joining(","));
    assertThat(mistyped).isNotEqualTo(members);
    CpctlRunner cpctl =
        new CpctlRunner(home)
            .env("CPCTL_TOKEN", SharedServer.OPERATOR_TOKEN)
            .env(
                "CPCTL_SERVER",
                String.join(",", cluster.nodes().stream().map(Node::httpUrl).toList()));

    edited.startWith("SERVICE_CONTROLPLANE_CLUSTER_MEMBERS", mistyped).awaitReady(START);
    try {
      for (Node node : cluster.nodes()) {
        List<String> expected =
            node == edited
                ? cluster.others(edited).stream().map(n -> n.id).sorted().toList()
                : List.of(edited.id);
        awaitMembersDisagreeing(node, expected);
      }
      assertThat(edited.process().logText())
          .contains("are configured with another SERVICE_CONTROLPLANE_CLUSTER_MEMBERS");
      assertThat(
              dev.controlplane.it.support.Metrics.valueIn(
                  dev.controlplane.it.support.Metrics.scrape(edited.httpPort()),
                  "controlplane_cluster_members_disagreeing",
                  ""))
          .isEqualTo(2.0);
      assertThat(leader.process().logText())
          .contains("nodes [" + edited.id + "] are configured with another");
      CpctlRunner.Run status = cpctl.run("cluster", "status");
      assertThat(status.exit()).as(status.toString()).isEqualTo(1);
      assertThat(status.err())
          .contains("nodes disagree on SERVICE_CONTROLPLANE_CLUSTER_MEMBERS")
          .contains(edited.id + ": '");
    } finally {
      edited.kill();
      edited.startWith("SERVICE_CONTROLPLANE_CLUSTER_MEMBERS", members).awaitReady(START);
    }
    for (Node node : cluster.nodes()) {
      awaitMembersDisagreeing(node, List.of());
    }
    CpctlRunner.Run status = cpctl.run("cluster", "status");
    assertThat(status.exit()).as(status.toString()).isZero();
  }

  /** The follower the last test left stopped, else one stopped now. */
  private Node stoppedFollower(Node leader) {
    Node edited = stoppedFollower != null ? stoppedFollower : cluster.others(leader).get(0);
    stoppedFollower = null;
    if (edited.isRunning()) {
      edited.kill();
    }
    return edited;
  }

  /**
   * A rolling restart stops the leader with SIGTERM. Liberty first waits (up to 30 s) for the
   * requests it is serving, here one whose client sends its body slowly, and only then stops the
   * application. The node must not hold leadership through that wait: it gives it up when the
   * signal arrives, and a successor leads while the old JVM is still stopping.
   */
  @Test
  @Order(7)
  void aLeaderStoppedWithSigtermHandsOverAtOnceWhileASlowRequestKeepsItsServerStopping()
      throws Exception {
    Node leader = cluster.awaitLeader(ELECTION);
    try (java.net.Socket slow = new java.net.Socket("127.0.0.1", leader.httpPort())) {
      String body = Http.tenant("slow-body", "sent slowly");
      var out = slow.getOutputStream();
      out.write(
          ("PUT /v1/tenants/slow-body HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  + "Authorization: Bearer "
                  + SharedServer.OPERATOR_TOKEN
                  + "\r\nContent-Type: application/json\r\nContent-Length: "
                  + body.length()
                  + "\r\n\r\n"
                  + body.substring(0, 5))
              .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      out.flush();
      Thread.sleep(500); // the request is on a server thread, waiting for the rest of its body

      long signalled = System.nanoTime();
      leader.terminate();
      Node successor = cluster.awaitLeader(cluster.others(leader), Duration.ofSeconds(15));
      long handedOverMillis = (System.nanoTime() - signalled) / 1_000_000;
      System.out.printf(
          "SIGTERM to %s: %s leads after %d ms%n", leader.id, successor.id, handedOverMillis);
      assertThat(leader.process().isAlive())
          .as("the stopped leader is still waiting for its slow request")
          .isTrue();
      assertThat(
              successor
                  .http()
                  .put("/v1/tenants/after-handover", Http.tenant("after-handover", "x"))
                  .status())
          .isEqualTo(201);
    }
    // The last test of the class: the stopped node is not started again.
  }

  /** Waits until {@code node} reports exactly {@code expected} as configured differently. */
  private static void awaitMembersDisagreeing(Node node, List<String> expected)
      throws InterruptedException {
    long deadline = System.nanoTime() + ELECTION.toNanos();
    List<String> seen = null;
    while (System.nanoTime() < deadline) {
      Http.Reply reply =
          new Http(node.httpPort(), SharedServer.OPERATOR_TOKEN).get("/v1/cluster/node");
      if (reply.status() == 200) {
        List<String> now = new ArrayList<>();
        reply.json().path("members_disagreeing").forEach(n -> now.add(n.asText()));
        java.util.Collections.sort(now);
        seen = now;
        if (seen.equals(expected)) {
          return;
        }
      }
      Thread.sleep(200);
    }
    assertThat(seen).as("the nodes %s sees configured differently", node.id).isEqualTo(expected);
  }

  /** What {@code watch} delivered up to {@code head}, once it has all of it. */
  private static List<MetadataUpdate> history(WatchCollector watch, long head) throws Exception {
    assertThat(watch.awaitVersion(head, Duration.ofSeconds(60)))
        .as("the watch reaches version %d", head)
        .isTrue();
    return watch.updates().stream().filter(u -> u.getVersion() <= head).toList();
  }

  private static long millisSince(long nanos) {
    return (System.nanoTime() - nanos) / 1_000_000;
  }
}
