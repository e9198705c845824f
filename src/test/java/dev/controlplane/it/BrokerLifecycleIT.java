package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.controlplane.it.support.Grpc;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.TestDatabase;
import dev.controlplane.it.support.WatchCollector;
import dev.controlplane.proto.v1.AdminServiceGrpc;
import dev.controlplane.proto.v1.BrokerCapacity;
import dev.controlplane.proto.v1.BrokerStatus;
import dev.controlplane.proto.v1.GetSnapshotRequest;
import dev.controlplane.proto.v1.HealthStatus;
import dev.controlplane.proto.v1.MetadataUpdate;
import dev.controlplane.proto.v1.RegisterBrokerRequest;
import dev.controlplane.proto.v1.ReportHealthRequest;
import dev.controlplane.proto.v1.SetBrokerStatusRequest;
import dev.controlplane.proto.v1.SetBrokerStatusResponse;
import dev.controlplane.proto.v1.ShardRole;
import dev.controlplane.proto.v1.ShardStatus;
import dev.controlplane.proto.v1.UpdateType;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** RegisterBroker, ReportHealth and failure detection. */
class BrokerLifecycleIT {

  @BeforeAll
  static void server() throws Exception {
    SharedServer.ensureStarted();
  }

  /** The brokers registered here go silent: the server's marking them down stays in this class. */
  @AfterAll
  static void brokersMarkedDown() throws Exception {
    TestDatabase.awaitBrokersDown(
        List.of("reg-1", "labelled", "hb-1", "maint-1", "maint-2", "lead-1", "lead-2"));
  }

  private static RegisterBrokerRequest registration(String id) {
    return RegisterBrokerRequest.newBuilder()
        .setBrokerId(id)
        .setAddress("10.0.0.7:7000")
        .setCapacity(BrokerCapacity.newBuilder().setMaxShards(500).setMaxConnections(10000))
        .putMetadata("region", "eu-west")
        .putMetadata("availability_zone", "eu-west-1a")
        .build();
  }

  private static ReportHealthRequest heartbeat(String id) {
    return ReportHealthRequest.newBuilder()
        .setBrokerId(id)
        .setStatus(HealthStatus.newBuilder().setHealthy(true).setUptimeSeconds(12))
        .addShardStatus(
            ShardStatus.newBuilder()
                .setTenantId("acme")
                .setNamespace("ns")
                .setStream("orders")
                .setShardId(3)
                .setRole(ShardRole.SHARD_ROLE_LEADER)
                .setActiveSubscribers(2))
        .build();
  }

  @Test
  void registrationCreatesTheBrokerWithRegionZoneAndCapacity() {
    try (Grpc grpc = Grpc.shared()) {
      var response = grpc.brokers().registerBroker(registration("reg-1"));
      assertThat(response.getBroker().getRegion()).isEqualTo("eu-west");
      assertThat(response.getBroker().getAvailabilityZone()).isEqualTo("eu-west-1a");
      assertThat(response.getBroker().getCapacity().getMaxShards()).isEqualTo(500);
      assertThat(response.getBroker().getStatus()).isEqualTo(BrokerStatus.BROKER_STATUS_ACTIVE);
      assertThat(response.getHeartbeatIntervalMs())
          .isEqualTo((int) SharedServer.HEARTBEAT.toMillis());
      var http = Http.shared().get("/v1/brokers/reg-1");
      assertThat(http.status()).isEqualTo(200);
      assertThat(http.json().path("spec").path("address").asText()).isEqualTo("10.0.0.7:7000");
      assertThat(http.version()).isEqualTo(response.getBroker().getVersion());

      long version = response.getMetadataVersion();
      var again = grpc.brokers().registerBroker(registration("reg-1"));
      assertThat(again.getBroker().getVersion())
          .as("an identical registration changes nothing")
          .isEqualTo(version);
    }
  }

  @Test
  void metadataBesidesRegionAndZoneIsKeptAsLabelsInSnapshotsWatchesAndHttp() throws Exception {
    try (Grpc grpc = Grpc.shared()) {
      long from = TestDatabase.headVersion();
      try (WatchCollector watch = WatchCollector.open(grpc.metadataAsync(), from)) {
        var registered =
            grpc.brokers()
                .registerBroker(
                    registration("labelled").toBuilder()
                        .putMetadata("rack", "r7")
                        .putMetadata("topology.kubernetes.io/node", "node-12")
                        .build());
        var expected = java.util.Map.of("rack", "r7", "topology.kubernetes.io/node", "node-12");
        assertThat(registered.getBroker().getLabelsMap()).isEqualTo(expected);
        assertThat(registered.getBroker().getAvailabilityZone()).isEqualTo("eu-west-1a");
        long version = registered.getBroker().getVersion();
        assertThat(watch.awaitVersion(version, Duration.ofSeconds(10))).isTrue();
        assertThat(watch.updates())
            .filteredOn(u -> u.hasBroker() && u.getBroker().getName().equals("labelled"))
            .singleElement()
            .satisfies(u -> assertThat(u.getBroker().getLabelsMap()).isEqualTo(expected));
      }
      var snapshot = grpc.metadata().getSnapshot(GetSnapshotRequest.getDefaultInstance());
      java.util.List<dev.controlplane.proto.v1.Broker> brokers = new java.util.ArrayList<>();
      snapshot.forEachRemaining(chunk -> brokers.addAll(chunk.getMetadata().getBrokersList()));
      assertThat(brokers)
          .filteredOn(b -> b.getName().equals("labelled"))
          .singleElement()
          .satisfies(b -> assertThat(b.getLabelsMap()).containsEntry("rack", "r7").hasSize(2));
    }
    var http = Http.shared().get("/v1/brokers/labelled").json();
    assertThat(http.path("spec").path("labels").path("rack").asText()).isEqualTo("r7");
    assertThat(http.path("spec").path("labels").path("topology.kubernetes.io/node").asText())
        .isEqualTo("node-12");
    assertThat(http.path("spec").path("labels").has("region")).isFalse();
  }

  /**
   * A NUL (which PostgreSQL cannot store) or another control character in what a broker sends is
   * its mistake, named, before anything is written: not a FAILED_PRECONDITION carrying the
   * database's text. (An unpaired surrogate cannot be sent: protobuf encodes it as '?'.)
   */
  @Test
  void textTheDatabaseCannotHoldIsInvalidArgumentNamingTheField() throws Exception {
    try (Grpc grpc = Grpc.shared()) {
      assertInvalid(
          () ->
              grpc.brokers()
                  .registerBroker(
                      registration("text-1").toBuilder().putMetadata("region", "eu\0").build()),
          "metadata[region]");
      assertInvalid(
          () ->
              grpc.brokers()
                  .registerBroker(
                      registration("text-1").toBuilder().putMetadata("rack", "bell\u0007").build()),
          "rack");
      ReportHealthRequest valid = heartbeat("text-1");
      assertInvalid(
          () ->
              grpc.brokers()
                  .reportHealth(
                      valid.toBuilder()
                          .setStatus(valid.getStatus().toBuilder().setMessage("disk\0full"))
                          .build()),
          "status.message");
      // The free-text bound of every document (1024), which the message was said to follow.
      assertInvalid(
          () ->
              grpc.brokers()
                  .reportHealth(
                      valid.toBuilder()
                          .setStatus(valid.getStatus().toBuilder().setMessage("x".repeat(1025)))
                          .build()),
          "status.message");
      assertInvalid(
          () ->
              grpc.brokers()
                  .reportHealth(
                      valid.toBuilder()
                          .setShardStatus(0, valid.getShardStatus(0).toBuilder().setTenantId("\0"))
                          .build()),
          "shard_status[0].tenant_id");
    }
    assertThat(Http.shared().get("/v1/brokers/text-1").status()).isEqualTo(404);
  }

  private static void assertInvalid(
      org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String field) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
              assertThat(e.getStatus().getDescription()).contains(field).doesNotContain("UTF8");
            });
  }

  @Test
  void theLiteralAutoIdAndLabelsOutOfBoundsAreRefusedNamingTheRule() throws Exception {
    long before = TestDatabase.headVersion();
    try (Grpc grpc = Grpc.shared()) {
      assertThatThrownBy(() -> grpc.brokers().registerBroker(registration("auto")))
          .isInstanceOfSatisfying(
              StatusRuntimeException.class,
              e -> {
                assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
                assertThat(e.getStatus().getDescription())
                    .contains("broker_id")
                    .contains("auto")
                    .contains("pod name");
              });
      var tooMany = registration("many-labels").toBuilder();
      for (int i = 0; i < 33; i++) {
        tooMany.putMetadata("k" + i, "v");
      }
      var longValue =
          registration("long-label").toBuilder().putMetadata("rack", "x".repeat(257)).build();
      for (var bad : new RegisterBrokerRequest[] {tooMany.build(), longValue}) {
        assertThatThrownBy(() -> grpc.brokers().registerBroker(bad))
            .isInstanceOfSatisfying(
                StatusRuntimeException.class,
                e -> {
                  assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
                  assertThat(e.getStatus().getDescription()).contains("metadata");
                });
      }
    }
    assertThat(TestDatabase.logRows(before))
        .noneMatch(
            r ->
                r.key().equals("auto")
                    || r.key().equals("many-labels")
                    || r.key().equals("long-label"));
    assertThat(Http.shared().get("/v1/brokers/auto").status()).isEqualTo(404);
  }

  @Test
  void aSilentBrokerIsMarkedDownAfterThreeMissedHeartbeatsAndActiveWhenItReportsAgain()
      throws Exception {
    try (Grpc grpc = Grpc.shared()) {
      long from = TestDatabase.headVersion();
      try (WatchCollector watch = WatchCollector.open(grpc.metadataAsync(), from)) {
        grpc.brokers().registerBroker(registration("hb-1"));
        for (int i = 0; i < 4; i++) {
          var reply = grpc.brokers().reportHealth(heartbeat("hb-1"));
          assertThat(reply.getBrokerStatus()).isEqualTo(BrokerStatus.BROKER_STATUS_ACTIVE);
          Thread.sleep(SharedServer.HEARTBEAT.toMillis() / 2);
        }
        long silentSince = System.nanoTime();
        MetadataUpdate down =
            awaitBrokerStatus(
                watch, "hb-1", BrokerStatus.BROKER_STATUS_DOWN, Duration.ofSeconds(15));
        double silentSeconds = (System.nanoTime() - silentSince) / 1e9;
        assertThat(down.getType()).isEqualTo(UpdateType.UPDATE);
        assertThat(silentSeconds).as("not before 3 missed heartbeats").isGreaterThanOrEqualTo(2.5);

        var back = grpc.brokers().reportHealth(heartbeat("hb-1"));
        assertThat(back.getBrokerStatus()).isEqualTo(BrokerStatus.BROKER_STATUS_ACTIVE);
        MetadataUpdate up =
            awaitBrokerStatus(
                watch,
                "hb-1",
                BrokerStatus.BROKER_STATUS_ACTIVE,
                Duration.ofSeconds(5),
                down.getVersion());
        assertThat(up.getVersion()).isGreaterThan(down.getVersion());
      }
    }
  }

  private static AdminServiceGrpc.AdminServiceBlockingStub admin(Grpc operator) {
    return AdminServiceGrpc.newBlockingStub(operator.channel());
  }

  private static SetBrokerStatusResponse setStatus(
      Grpc operator, String broker, BrokerStatus status) {
    return admin(operator)
        .setBrokerStatus(
            SetBrokerStatusRequest.newBuilder().setBrokerId(broker).setStatus(status).build());
  }

  private static com.fasterxml.jackson.databind.JsonNode brokerSpec(String broker) {
    return Http.shared().get("/v1/brokers/" + broker).json().path("spec");
  }

  /**
   * Maintenance as docs/operations.md describes it: drain, stop, start, undrain. Failure detection
   * marks the stopped broker down in between, and the drain must outlive that: a broker that came
   * back active would be given shards before the operator undrained it.
   */
  @Test
  void aDrainedBrokerThatWasMarkedDownComesBackDrainingUntilUndrained() throws Exception {
    try (Grpc grpc = Grpc.shared();
        Grpc operator = new Grpc(SharedServer.grpcPort(), SharedServer.OPERATOR_TOKEN)) {
      grpc.brokers().registerBroker(registration("maint-1"));
      setStatus(operator, "maint-1", BrokerStatus.BROKER_STATUS_DRAINING);
      TestDatabase.awaitBrokersDown(List.of("maint-1"));
      assertThat(brokerSpec("maint-1").path("status").asText()).isEqualTo("down");
      assertThat(brokerSpec("maint-1").path("drain_requested").asBoolean()).isTrue();

      var back = grpc.brokers().reportHealth(heartbeat("maint-1"));
      assertThat(back.getBrokerStatus()).isEqualTo(BrokerStatus.BROKER_STATUS_DRAINING);

      // A restarted broker registers first: the drain holds on that path too.
      TestDatabase.awaitBrokersDown(List.of("maint-1"));
      var registered = grpc.brokers().registerBroker(registration("maint-1"));
      assertThat(registered.getBroker().getStatus()).isEqualTo(BrokerStatus.BROKER_STATUS_DRAINING);

      var undrained = setStatus(operator, "maint-1", BrokerStatus.BROKER_STATUS_ACTIVE);
      assertThat(undrained.getBroker().getStatus()).isEqualTo(BrokerStatus.BROKER_STATUS_ACTIVE);
      assertThat(undrained.getBroker().getDrainRequested()).isFalse();
    }
  }

  /**
   * A broker that crashed before its drain (or whose drain was forgotten) is drained while down.
   */
  @Test
  void aDownBrokerCanBeDrainedAndComesBackDraining() throws Exception {
    try (Grpc grpc = Grpc.shared();
        Grpc operator = new Grpc(SharedServer.grpcPort(), SharedServer.OPERATOR_TOKEN)) {
      grpc.brokers().registerBroker(registration("maint-2"));
      TestDatabase.awaitBrokersDown(List.of("maint-2"));

      var drained = setStatus(operator, "maint-2", BrokerStatus.BROKER_STATUS_DRAINING);
      assertThat(drained.getBroker().getStatus()).isEqualTo(BrokerStatus.BROKER_STATUS_DOWN);
      assertThat(drained.getBroker().getDrainRequested()).isTrue();
      assertThat(brokerSpec("maint-2").path("status").asText()).isEqualTo("down");

      var back = grpc.brokers().registerBroker(registration("maint-2"));
      assertThat(back.getBroker().getStatus()).isEqualTo(BrokerStatus.BROKER_STATUS_DRAINING);

      // Undrained while down, it comes back active.
      TestDatabase.awaitBrokersDown(List.of("maint-2"));
      setStatus(operator, "maint-2", BrokerStatus.BROKER_STATUS_ACTIVE);
      assertThat(grpc.brokers().reportHealth(heartbeat("maint-2")).getBrokerStatus())
          .isEqualTo(BrokerStatus.BROKER_STATUS_ACTIVE);
    }
  }

  /** Heartbeats every 300 ms for the brokers in {@link #alive}, which a test changes. */
  private static final class Heartbeats implements AutoCloseable {
    final Set<String> alive = ConcurrentHashMap.newKeySet();

    /** What a broker reports instead of {@link #heartbeat}, by broker. */
    final Map<String, ReportHealthRequest> reports = new ConcurrentHashMap<>();

    private final ScheduledExecutorService beats = Executors.newSingleThreadScheduledExecutor();

    Heartbeats(Grpc grpc) {
      beats.scheduleAtFixedRate(
          () ->
              alive.forEach(
                  b -> {
                    try {
                      grpc.brokers().reportHealth(reports.getOrDefault(b, heartbeat(b)));
                    } catch (RuntimeException e) {
                      // the next beat goes on
                    }
                  }),
          0,
          300,
          TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() throws InterruptedException {
      beats.shutdownNow();
      beats.awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  private static String leaderOf(String placementPath) {
    return Http.shared()
        .get(placementPath)
        .json()
        .path("spec")
        .path("placements")
        .get(0)
        .path("leader")
        .asText();
  }

  private static String statusOf(String broker) {
    return brokerSpec(broker).path("status").asText();
  }

  private static void awaitStatus(String broker, String status) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
    while (!statusOf(broker).equals(status)) {
      assertThat(System.nanoTime()).as("%s %s within 15 s", broker, status).isLessThan(deadline);
      Thread.sleep(100);
    }
  }

  /**
   * A shard of replication factor 2 loses its follower, then its leader: nobody can lead it. When
   * either broker comes back the shard must be led by a live broker again, not stay with the dead
   * leader until someone rebalances; and a draining replica, alive, leads rather than nobody.
   */
  @Test
  void aShardWhoseLeaderIsDownIsLedByAReplicaThatIsAliveOrComesBack() throws Exception {
    Http http = tenantWithNamespaceNs("leaders");
    try (Grpc grpc = Grpc.shared();
        Grpc operator = new Grpc(SharedServer.grpcPort(), SharedServer.OPERATOR_TOKEN);
        Heartbeats beats = new Heartbeats(grpc)) {
      grpc.brokers().registerBroker(registration("lead-1"));
      grpc.brokers().registerBroker(registration("lead-2"));
      beats.alive.addAll(List.of("lead-1", "lead-2"));
      // Only these two alive, so the stream's two replicas land on them.
      awaitOnlyAlive(List.of("lead-1", "lead-2"), () -> {});
      String stream = "/v1/tenants/leaders/namespaces/ns/streams/pair";
      assertThat(http.put(stream, Http.stream("leaders", "ns", "pair", 1, 2)).status())
          .isEqualTo(201);
      String placement = stream + "/placement";
      String leader = leaderOf(placement);
      String follower = leader.equals("lead-1") ? "lead-2" : "lead-1";

      beats.alive.remove(follower);
      awaitStatus(follower, "down");
      beats.alive.remove(leader);
      awaitStatus(leader, "down");
      assertThat(leaderOf(placement)).as("no live replica to lead").isEqualTo(leader);

      beats.alive.add(follower);
      awaitStatus(follower, "active");
      assertThat(leaderOf(placement)).as("the replica that came back").isEqualTo(follower);

      // The old leader comes back and is drained; then the new leader dies.
      beats.alive.add(leader);
      awaitStatus(leader, "active");
      setStatus(operator, leader, BrokerStatus.BROKER_STATUS_DRAINING);
      beats.alive.remove(follower);
      awaitStatus(follower, "down");
      assertThat(leaderOf(placement)).as("the draining replica, alive").isEqualTo(leader);
      setStatus(operator, leader, BrokerStatus.BROKER_STATUS_ACTIVE);
    }
  }

  /**
   * The leader of a shard on three brokers dies. Of its two followers, the one whose heartbeats
   * said its copy lagged would lead by name (they lead nothing else); the one that said its copy
   * was in sync leads instead, so the shard loses no message the old leader had.
   */
  @Test
  void aShardWhoseLeaderDiesIsLedByTheFollowerThatReportedItsCopyInSync() throws Exception {
    Http http = tenantWithNamespaceNs("insync");
    List<String> names = List.of("sync-1", "sync-2", "sync-3");
    try (Grpc grpc = Grpc.shared();
        Heartbeats beats = new Heartbeats(grpc)) {
      names.forEach(n -> grpc.brokers().registerBroker(registration(n)));
      beats.alive.addAll(names);
      // Only these three alive, so the stream's three replicas land on them.
      awaitOnlyAlive(names, () -> {});
      String stream = "/v1/tenants/insync/namespaces/ns/streams/trio";
      assertThat(http.put(stream, Http.stream("insync", "ns", "trio", 1, 3)).status())
          .isEqualTo(201);
      String placement = stream + "/placement";
      String leader = leaderOf(placement);
      List<String> followers = names.stream().filter(n -> !n.equals(leader)).sorted().toList();
      String lagging = followers.get(0);
      String caughtUp = followers.get(1);
      beats.reports.put(lagging, followerReport(lagging, "trio", false));
      beats.reports.put(caughtUp, followerReport(caughtUp, "trio", true));
      while (TestDatabase.queryLong(
              "SELECT count(*) FROM broker_health WHERE broker IN ('"
                  + lagging
                  + "', '"
                  + caughtUp
                  + "') AND shard_status::text LIKE '%trio%'")
          < 2) {
        Thread.sleep(100);
      }

      beats.alive.remove(leader);
      awaitStatus(leader, "down");
      assertThat(leaderOf(placement))
          .as("the follower whose copy was in sync, not %s, first by name", lagging)
          .isEqualTo(caughtUp);
    }
  }

  /**
   * Waits until every broker but {@code names} is down (brokers of other tests stop beating), so
   * placements land on {@code names} only; {@code meanwhile} runs before each look.
   */
  private static void awaitOnlyAlive(List<String> names, Runnable meanwhile) throws Exception {
    String others =
        "SELECT count(*) FROM brokers WHERE status <> 'down' AND name NOT IN ("
            + String.join(", ", names.stream().map(n -> "'" + n + "'").toList())
            + ")";
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    long alive;
    while (true) {
      meanwhile.run();
      alive = TestDatabase.queryLong(others);
      if (alive == 0 || System.nanoTime() > deadline) {
        break;
      }
      Thread.sleep(200);
    }
    assertThat(alive).as("brokers other than %s not down after 60 s", names).isZero();
  }

  /** Tenant {@code tenant} with namespace ns, made if need be; the shared server's client. */
  private static Http tenantWithNamespaceNs(String tenant) {
    Http http = Http.shared();
    assertThat(http.put("/v1/tenants/" + tenant, Http.tenant(tenant, "")).status())
        .isBetween(200, 201);
    assertThat(
            http.put("/v1/tenants/" + tenant + "/namespaces/ns", Http.namespace(tenant, "ns", ""))
                .status())
        .isBetween(200, 201);
    return http;
  }

  private static ReportHealthRequest followerReport(String broker, String stream, boolean inSync) {
    return ReportHealthRequest.newBuilder()
        .setBrokerId(broker)
        .setStatus(HealthStatus.newBuilder().setHealthy(true))
        .addShardStatus(
            ShardStatus.newBuilder()
                .setTenantId("insync")
                .setNamespace("ns")
                .setStream(stream)
                .setShardId(0)
                .setRole(ShardRole.SHARD_ROLE_FOLLOWER)
                .setInSync(inSync))
        .build();
  }

  @Test
  void theOperatorRemovesABrokerOnlyWhenItIsDownAndHoldsNoReplica() throws Exception {
    String tenant = "brokers-gone";
    Http http = tenantWithNamespaceNs(tenant);
    try (Grpc grpc = Grpc.shared()) {
      long from = TestDatabase.headVersion();
      try (WatchCollector watch = WatchCollector.open(grpc.metadataAsync(), from)) {
        grpc.brokers().registerBroker(registration("gone-1"));
        // The only active broker, so the stream's one replica lands on it.
        awaitOnlyAlive(List.of("gone-1"), () -> grpc.brokers().reportHealth(heartbeat("gone-1")));
        String streamPath = "/v1/tenants/" + tenant + "/namespaces/ns/streams/held";
        assertThat(http.put(streamPath, Http.stream(tenant, "ns", "held", 1, 1)).status())
            .isEqualTo(201);

        Http.Reply active = http.delete("/v1/brokers/gone-1");
        assertThat(active.status()).isEqualTo(409);
        assertThat(active.contentType()).startsWith("application/problem+json");
        assertThat(active.json().path("detail").asText()).contains("is active", "marked down");

        TestDatabase.awaitBrokersDown(List.of("gone-1"));
        Http.Reply holding = http.delete("/v1/brokers/gone-1");
        assertThat(holding.status()).isEqualTo(409);
        assertThat(holding.json().path("detail").asText()).contains("still holds 1 shard replica");

        // A deleted stream's placement goes with it (a restore places the stream anew).
        assertThat(http.delete(streamPath).status()).isEqualTo(200);
        Http.Reply dryRun = http.delete("/v1/brokers/gone-1?dryRun=All");
        assertThat(dryRun.status()).isEqualTo(200);
        assertThat(http.get("/v1/brokers/gone-1").status()).isEqualTo(200);

        Http.Reply removed = http.delete("/v1/brokers/gone-1");
        assertThat(removed.status()).isEqualTo(200);
        assertThat(removed.json().path("metadata").path("name").asText()).isEqualTo("gone-1");
        assertThat(http.get("/v1/brokers/gone-1").status()).isEqualTo(404);
        assertThat(http.delete("/v1/brokers/gone-1").status()).isEqualTo(404);
        assertThat(
                TestDatabase.queryLong(
                    "SELECT count(*) FROM broker_health WHERE broker = 'gone-1'"))
            .isZero();
        assertThat(
                TestDatabase.queryLong(
                    "SELECT count(*) FROM audit_records WHERE resource = 'broker:gone-1'"
                        + " AND operation = 'broker.remove' AND principal = 'operator'"
                        + " AND result = 'success'"))
            .as("one audit record: the dry run and the refusals leave none")
            .isEqualTo(1);
        MetadataUpdate deleted = awaitBrokerUpdate(watch, "gone-1", UpdateType.DELETE);
        assertThat(deleted.getVersion()).isGreaterThan(from);

        // A broker of that name may register again later, as a new broker.
        var again = grpc.brokers().registerBroker(registration("gone-1"));
        assertThat(again.getBroker().getStatus()).isEqualTo(BrokerStatus.BROKER_STATUS_ACTIVE);
      }
    }
    TestDatabase.awaitBrokersDown(List.of("gone-1"));
  }

  @Test
  void removingABrokerNeedsTheOperatorCredential() {
    Http broker = new Http(SharedServer.httpPort(), SharedServer.BROKER_TOKEN);
    Http.Reply refused = broker.delete("/v1/brokers/reg-1");
    assertThat(refused.status()).isIn(401, 403);
    assertThat(refused.contentType()).startsWith("application/problem+json");
  }

  private static MetadataUpdate awaitBrokerUpdate(
      WatchCollector watch, String broker, UpdateType type) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (System.nanoTime() < deadline) {
      for (MetadataUpdate u : watch.updates()) {
        if (u.getType() == type && u.hasBroker() && u.getBroker().getName().equals(broker)) {
          return u;
        }
      }
      Thread.sleep(50);
    }
    throw new AssertionError("no " + type + " update of broker " + broker + " within 10 s");
  }

  private static MetadataUpdate awaitBrokerStatus(
      WatchCollector watch, String broker, BrokerStatus status, Duration timeout)
      throws InterruptedException {
    return awaitBrokerStatus(watch, broker, status, timeout, 0);
  }

  private static MetadataUpdate awaitBrokerStatus(
      WatchCollector watch, String broker, BrokerStatus status, Duration timeout, long after)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      for (MetadataUpdate u : watch.updates()) {
        if (u.getVersion() > after
            && u.hasBroker()
            && u.getBroker().getName().equals(broker)
            && u.getBroker().getStatus() == status) {
          return u;
        }
      }
      Thread.sleep(50);
    }
    throw new AssertionError(
        "no update made broker " + broker + " " + status + " within " + timeout);
  }

  @Test
  void brokerRpcsAreRefusedWithoutTheBrokerCredential() {
    try (Grpc none = new Grpc(SharedServer.grpcPort(), null);
        Grpc wrong = new Grpc(SharedServer.grpcPort(), "guess")) {
      for (Grpc client : new Grpc[] {none, wrong}) {
        assertUnauthenticated(() -> client.brokers().registerBroker(registration("intruder")));
        assertUnauthenticated(() -> client.brokers().reportHealth(heartbeat("intruder")));
        assertUnauthenticated(
            () -> client.metadata().getSnapshot(GetSnapshotRequest.getDefaultInstance()).hasNext());
      }
    }
    assertThat(Http.shared().get("/v1/brokers/intruder").status()).isEqualTo(404);
  }

  private static void assertUnauthenticated(Runnable call) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED));
  }

  @Test
  void invalidRegistrationsAreRefusedWithInvalidArgumentAndWriteNothing() throws Exception {
    long before = TestDatabase.headVersion();
    try (Grpc grpc = Grpc.shared()) {
      // Each refusal names the request's field, not the Broker document's it is checked as.
      Map<RegisterBrokerRequest, String> refusals =
          Map.of(
              registration("Bad_Name"), "broker_id: ",
              registration(""), "broker_id: ",
              registration("ok-name").toBuilder().setAddress("no-port").build(), "address: ",
              registration("x".repeat(64)), "broker_id: ",
              registration("ok-zone").toBuilder().putMetadata("region", "r".repeat(1025)).build(),
                  "metadata[region]: ");
      refusals.forEach(
          (bad, field) ->
              assertThatThrownBy(() -> grpc.brokers().registerBroker(bad))
                  .isInstanceOfSatisfying(
                      StatusRuntimeException.class,
                      e -> {
                        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
                        assertThat(e.getStatus().getDescription()).startsWith(field);
                      }));
      assertThatThrownBy(() -> grpc.brokers().reportHealth(heartbeat("never-registered")))
          .isInstanceOfSatisfying(
              StatusRuntimeException.class,
              e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND));
    }
    // Other tests' brokers may change meanwhile (failure detection); none of these may appear.
    assertThat(TestDatabase.logRows(before))
        .noneMatch(
            r ->
                r.key().equals("ok-name")
                    || r.key().equals("ok-zone")
                    || r.key().equalsIgnoreCase("bad_name")
                    || r.key().startsWith("xxxx"));
    assertThat(Http.shared().get("/v1/brokers/ok-name").status()).isEqualTo(404);
    assertThat(Http.shared().get("/v1/brokers/ok-zone").status()).isEqualTo(404);
  }
}
