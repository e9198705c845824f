package dev.controlplane.it;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.controlplane.it.support.Grpc;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.TestDatabase;
import dev.controlplane.proto.v1.*;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * AdminService over real gRPC: streams, quotas, deletion safety, paging, leadership, rebalancing.
 */
class AdminServiceIT {

  private static final String[] BROKERS = {"adm-a", "adm-b", "adm-c", "adm-d"};
  private static ScheduledExecutorService heartbeats;

  /** What each broker of this class reports about its shards with every heartbeat. */
  private static final java.util.Map<String, List<ShardStatus>> REPORTS =
      new java.util.concurrent.ConcurrentHashMap<>();

  private static Grpc grpc;

  @BeforeAll
  static void setUp() throws Exception {
    SharedServer.ensureStarted();
    grpc = Grpc.shared();
    for (int i = 0; i < BROKERS.length; i++) {
      register(BROKERS[i], "zone-" + (i % 2));
    }
    heartbeats = Executors.newSingleThreadScheduledExecutor();
    heartbeats.scheduleAtFixedRate(
        () -> {
          for (String b : BROKERS) {
            try {
              grpc.brokers()
                  .reportHealth(
                      ReportHealthRequest.newBuilder()
                          .setBrokerId(b)
                          .setStatus(HealthStatus.newBuilder().setHealthy(true))
                          .addAllShardStatus(REPORTS.getOrDefault(b, List.of()))
                          .build());
            } catch (RuntimeException ignored) {
              // A broker of a test that is being deleted or drained; the next beat goes on.
            }
          }
        },
        0,
        300,
        TimeUnit.MILLISECONDS);
    Http http = Http.shared();
    http.put("/v1/tenants/admin", Http.tenant("admin", "admin service"));
    http.put("/v1/tenants/admin/namespaces/ns", Http.namespace("admin", "ns", ""));
  }

  @AfterAll
  static void tearDown() throws Exception {
    heartbeats.shutdownNow();
    grpc.close();
    List<String> registered = new ArrayList<>(List.of(BROKERS));
    registered.add("adm-lone");
    TestDatabase.awaitBrokersDown(registered);
  }

  private static void register(String id, String zone) {
    grpc.brokers()
        .registerBroker(
            RegisterBrokerRequest.newBuilder()
                .setBrokerId(id)
                .setAddress("127.0.0.1:7000")
                .putMetadata("availability_zone", zone)
                .build());
  }

  private static AdminServiceGrpc.AdminServiceBlockingStub admin() {
    return AdminServiceGrpc.newBlockingStub(
        new Grpc(SharedServer.grpcPort(), SharedServer.OPERATOR_TOKEN).channel());
  }

  private static CreateStreamRequest create(String ns, String name, int shards, int rf) {
    return CreateStreamRequest.newBuilder()
        .setTenantId("admin")
        .setNamespace(ns)
        .setStream(name)
        .setSpec(
            StreamSpec.newBuilder()
                .setShards(shards)
                .setReplicationFactor(rf)
                .setDurability(Durability.DURABILITY_DURABLE)
                .setRetention(RetentionPolicy.newBuilder().setTime("1d")))
        .build();
  }

  /** The status of a transfer of shard {@code shard} of admin/ns/lead to {@code target}. */
  private static Status.Code transferCode(int shard, String target) {
    return codeOf(
        () ->
            admin()
                .transferShardLeadership(
                    TransferShardLeadershipRequest.newBuilder()
                        .setStreamId("admin/ns/lead")
                        .setShardId(shard)
                        .setTargetBroker(target)
                        .build()));
  }

  /** The first stream of admin/ns whose name contains {@code filter}, with its metrics. */
  private static StreamInfo listedInNs(String filter) {
    return admin()
        .listStreams(
            ListStreamsRequest.newBuilder()
                .setTenantId("admin")
                .setNamespace("ns")
                .setFilter(filter)
                .build())
        .getStreams(0);
  }

  private static Status.Code codeOf(Runnable call) {
    try {
      call.run();
      return Status.Code.OK;
    } catch (StatusRuntimeException e) {
      return e.getStatus().getCode();
    }
  }

  private static List<Set<String>> replicaSets(String ns, String stream) {
    var placement =
        Http.shared()
            .get("/v1/tenants/admin/namespaces/" + ns + "/streams/" + stream + "/placement")
            .json();
    List<Set<String>> out = new ArrayList<>();
    placement
        .path("spec")
        .path("placements")
        .forEach(
            shard -> {
              Set<String> replicas = new HashSet<>();
              shard.path("replicas").forEach(r -> replicas.add(r.asText()));
              out.add(replicas);
            });
    return out;
  }

  @Test
  void createStreamValidatesPlacesOnDistinctActiveBrokersAndRefusesDuplicates() {
    var created = admin().createStream(create("ns", "orders", 8, 3));
    assertThat(created.getStreamId()).isEqualTo("admin/ns/orders");
    assertThat(created.getStatus()).isEqualTo(StreamStatus.STREAM_STATUS_ACTIVE);
    assertThat(replicaSets("ns", "orders")).hasSize(8).allMatch(r -> r.size() == 3);
    String path = "/v1/tenants/admin/namespaces/ns/streams/orders";
    assertThat(created.getMetadataVersion())
        .as("the answer's version is the stream's, its placement's the next one")
        .isEqualTo(Http.shared().get(path).json().path("metadata").path("version").asLong())
        .isEqualTo(
            Http.shared().get(path + "/placement").json().path("metadata").path("version").asLong()
                - 1);
    assertThat(codeOf(() -> admin().createStream(create("ns", "orders", 8, 3))))
        .isEqualTo(Status.Code.ALREADY_EXISTS);
    assertThat(codeOf(() -> admin().createStream(create("ns", "zero", 0, 1))))
        .isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(codeOf(() -> admin().createStream(create("ns", "Bad_Name", 1, 1))))
        .isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(codeOf(() -> admin().createStream(create("nope", "s", 1, 1))))
        .isEqualTo(Status.Code.NOT_FOUND);
    assertThat(codeOf(() -> admin().createStream(create("ns", "wide", 1, 16))))
        .isEqualTo(Status.Code.FAILED_PRECONDITION);
    var unauthenticated =
        AdminServiceGrpc.newBlockingStub(new Grpc(SharedServer.grpcPort(), "wrong").channel());
    assertThat(codeOf(() -> unauthenticated.createStream(create("ns", "x", 1, 1))))
        .isEqualTo(Status.Code.UNAUTHENTICATED);
  }

  /**
   * An enum number this version does not know is refused naming the field; it used to be read as
   * the weaker known value (an ephemeral stream, a leader-only ack).
   */
  @Test
  void createStreamRefusesDurabilityAndAckPolicyNumbersItDoesNotKnow() {
    for (var spec :
        List.of(
            StreamSpec.newBuilder().setShards(1).setDurabilityValue(7),
            StreamSpec.newBuilder().setShards(1).setAckPolicyValue(9))) {
      var request =
          CreateStreamRequest.newBuilder()
              .setTenantId("admin")
              .setNamespace("ns")
              .setStream("unknown-enum")
              .setSpec(spec)
              .build();
      assertThatThrownBy(() -> admin().createStream(request))
          .isInstanceOfSatisfying(
              StatusRuntimeException.class,
              e -> {
                assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
                assertThat(e.getStatus().getDescription())
                    .containsAnyOf("spec.durability", "spec.ack_policy");
              });
    }
    assertThat(Http.shared().get("/v1/tenants/admin/namespaces/ns/streams/unknown-enum").status())
        .isEqualTo(404);
  }

  @Test
  void createStreamWithoutReplicationFactorGetsTheHttpDefaultOfOne() {
    var request =
        CreateStreamRequest.newBuilder()
            .setTenantId("admin")
            .setNamespace("ns")
            .setStream("rf-default")
            .setSpec(StreamSpec.newBuilder().setShards(2))
            .build();
    var created = admin().createStream(request);
    assertThat(created.getStatus()).isEqualTo(StreamStatus.STREAM_STATUS_ACTIVE);
    var stream = Http.shared().get("/v1/tenants/admin/namespaces/ns/streams/rf-default").json();
    assertThat(stream.path("spec").path("replication_factor").asInt()).isEqualTo(1);
    assertThat(stream.path("spec").path("durability").asText()).isEqualTo("durable");
    assertThat(replicaSets("ns", "rf-default"))
        .hasSize(2)
        .allSatisfy(r -> assertThat(r).hasSize(1));
  }

  @Test
  void deleteStreamAnswersTheEndOfTheGracePeriodItScheduled() throws Exception {
    admin().createStream(create("ns", "graced", 1, 1));
    long before = System.currentTimeMillis();
    var deleted =
        admin()
            .deleteStream(
                DeleteStreamRequest.newBuilder()
                    .setTenantId("admin")
                    .setNamespace("ns")
                    .setStream("graced")
                    .build());
    long after = System.currentTimeMillis();
    long grace = SharedServer.DELETE_GRACE.toMillis();
    assertThat(deleted.getPurgeAfterEpochMs())
        .isBetween(before + grace - 1000, after + grace + 1000);
    long stored =
        dev.controlplane.it.support.TestDatabase.queryLong(
            "SELECT floor(extract(epoch FROM purge_after) * 1000)::bigint FROM streams"
                + " WHERE tenant = 'admin' AND namespace = 'ns' AND name = 'graced'");
    assertThat(deleted.getPurgeAfterEpochMs())
        .as("the answer is the purge time the server stored")
        .isEqualTo(stored);
  }

  @Test
  void parallelCreatesNeverExceedTheNamespaceQuota() throws Exception {
    Http.shared()
        .put(
            "/v1/tenants/admin/namespaces/quota",
            "{\"apiVersion\":\"controlplane/v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"quota\",\"tenant\":\"admin\"},"
                + "\"spec\":{\"quotas\":{\"max_streams\":5}}}");
    ExecutorService pool = Executors.newFixedThreadPool(8);
    List<Future<Status.Code>> results = new ArrayList<>();
    for (int i = 0; i < 24; i++) {
      int n = i;
      results.add(
          pool.submit(() -> codeOf(() -> admin().createStream(create("quota", "q" + n, 1, 1)))));
    }
    int ok = 0;
    int exhausted = 0;
    for (Future<Status.Code> f : results) {
      Status.Code code = f.get();
      ok += code == Status.Code.OK ? 1 : 0;
      exhausted += code == Status.Code.RESOURCE_EXHAUSTED ? 1 : 0;
    }
    pool.shutdown();
    assertThat(ok).isEqualTo(5);
    assertThat(exhausted).isEqualTo(19);
    var listed =
        admin()
            .listStreams(
                ListStreamsRequest.newBuilder().setTenantId("admin").setNamespace("quota").build());
    assertThat(listed.getStreamsList()).hasSize(5);
  }

  @Test
  void deletionIsRefusedWhileSubscribersAreActiveUnlessForcedAndCanBeRestored() {
    admin().createStream(create("ns", "busy", 2, 1));
    var report =
        ShardStatus.newBuilder()
            .setTenantId("admin")
            .setNamespace("ns")
            .setStream("busy")
            .setShardId(0)
            .setRole(ShardRole.SHARD_ROLE_LEADER)
            .setActiveSubscribers(3)
            .setInSync(true)
            .setPublishRate(10)
            .build();
    REPORTS.put("adm-a", List.of(report));
    grpc.brokers()
        .reportHealth(
            ReportHealthRequest.newBuilder().setBrokerId("adm-a").addShardStatus(report).build());
    var delete =
        DeleteStreamRequest.newBuilder().setTenantId("admin").setNamespace("ns").setStream("busy");
    var listed = listedInNs("busy");
    assertThat(listed.getMetrics().getActiveSubscribers()).isEqualTo(3);
    assertThat(listed.getMetrics().getShardsReporting()).isEqualTo(1);
    assertThat(codeOf(() -> admin().deleteStream(delete.build())))
        .isEqualTo(Status.Code.FAILED_PRECONDITION);
    REPORTS.remove("adm-a");
    assertThat(Http.shared().get("/v1/tenants/admin/namespaces/ns/streams/busy").status())
        .isEqualTo(200);

    var deleted = admin().deleteStream(delete.setForce(true).build());
    assertThat(deleted.getStatus()).isEqualTo(StreamStatus.STREAM_STATUS_DELETING);
    assertThat(Http.shared().get("/v1/tenants/admin/namespaces/ns/streams/busy").status())
        .isEqualTo(404);
    assertThat(codeOf(() -> admin().createStream(create("ns", "busy", 2, 1))))
        .isEqualTo(Status.Code.ALREADY_EXISTS);

    var restored =
        admin()
            .restoreStream(
                RestoreStreamRequest.newBuilder()
                    .setTenantId("admin")
                    .setNamespace("ns")
                    .setStream("busy")
                    .build());
    assertThat(restored.getStatus()).isEqualTo(StreamStatus.STREAM_STATUS_ACTIVE);
    assertThat(Http.shared().get("/v1/tenants/admin/namespaces/ns/streams/busy").status())
        .isEqualTo(200);
    assertThat(replicaSets("ns", "busy")).hasSize(2);
    assertThat(
            codeOf(
                () ->
                    admin()
                        .restoreStream(
                            RestoreStreamRequest.newBuilder()
                                .setTenantId("admin")
                                .setNamespace("ns")
                                .setStream("busy")
                                .build())))
        .isEqualTo(Status.Code.NOT_FOUND);
  }

  /**
   * storage_bytes is a uint64: a broker reporting 2^64 - 1 (an "unknown" marker) made every listing
   * of the namespace fail with INVALID_ARGUMENT, blaming the caller. The sum saturates instead.
   */
  @Test
  void aBrokerReportingTheLargestStorageNeitherBreaksNorWrapsTheListing() {
    admin().createStream(create("ns", "huge", 2, 1));
    List<ShardStatus> reports = new java.util.ArrayList<>();
    for (int shard = 0; shard < 2; shard++) {
      reports.add(
          ShardStatus.newBuilder()
              .setTenantId("admin")
              .setNamespace("ns")
              .setStream("huge")
              .setShardId(shard)
              .setRole(ShardRole.SHARD_ROLE_LEADER)
              .setStorageBytes(-1L)
              .build());
    }
    REPORTS.put("adm-b", reports);
    try {
      grpc.brokers()
          .reportHealth(
              ReportHealthRequest.newBuilder()
                  .setBrokerId("adm-b")
                  .addAllShardStatus(reports)
                  .build());
      var listed = listedInNs("huge");
      assertThat(listed.getMetrics().getStorageBytes()).isEqualTo(Long.MAX_VALUE);
      assertThat(listed.getMetrics().getShardsReporting()).isEqualTo(2);
    } finally {
      REPORTS.remove("adm-b");
    }
  }

  private static ShardStatus synced(int shard, boolean leader) {
    return ShardStatus.newBuilder()
        .setTenantId("admin")
        .setNamespace("ns")
        .setStream("synced")
        .setShardId(shard)
        .setRole(leader ? ShardRole.SHARD_ROLE_LEADER : ShardRole.SHARD_ROLE_FOLLOWER)
        .setInSync(true)
        .build();
  }

  private static StreamMetrics syncedMetrics(java.util.Map<String, List<ShardStatus>> reports) {
    REPORTS.putAll(reports);
    reports.forEach(
        (broker, shards) ->
            grpc.brokers()
                .reportHealth(
                    ReportHealthRequest.newBuilder()
                        .setBrokerId(broker)
                        .addAllShardStatus(shards)
                        .build()));
    return listedInNs("synced").getMetrics();
  }

  /**
   * shards_in_sync counts shards whose replicas all report in_sync: a replica that reports nothing
   * (its broker down, or behind without saying so) is not in sync, however in sync the others are.
   */
  @Test
  void aShardIsInSyncOnlyWhenEveryPlacedReplicaReportsItInSync() {
    admin().createStream(create("ns", "synced", 2, 2));
    var placed =
        Http.shared()
            .get("/v1/tenants/admin/namespaces/ns/streams/synced/placement")
            .json()
            .path("spec")
            .path("placements");
    java.util.Map<String, List<ShardStatus>> reports = new java.util.HashMap<>();
    String silent = null;
    for (var shard : placed) {
      int id = shard.path("shard_id").asInt();
      String leader = shard.path("leader").asText();
      for (var replica : shard.path("replicas")) {
        String broker = replica.asText();
        if (id == 1 && !broker.equals(leader)) {
          silent = broker;
          continue;
        }
        reports
            .computeIfAbsent(broker, b -> new ArrayList<>())
            .add(synced(id, broker.equals(leader)));
      }
    }
    try {
      StreamMetrics partly = syncedMetrics(reports);
      assertThat(partly.getShardsReporting()).isEqualTo(2);
      assertThat(partly.getShardsInSync()).as("shard 1's follower reports nothing").isEqualTo(1);

      reports.computeIfAbsent(silent, b -> new ArrayList<>()).add(synced(1, false));
      assertThat(syncedMetrics(reports).getShardsInSync()).isEqualTo(2);
    } finally {
      reports.keySet().forEach(REPORTS::remove);
    }
  }

  /** The names went to the database as the text literal {a,b}, where an unquoted null is NULL. */
  @Test
  void aStreamNamedNullGetsTheMetricsItsBrokersReport() {
    admin().createStream(create("ns", "null", 1, 1));
    var report =
        ShardStatus.newBuilder()
            .setTenantId("admin")
            .setNamespace("ns")
            .setStream("null")
            .setRole(ShardRole.SHARD_ROLE_LEADER)
            .setActiveSubscribers(4)
            .build();
    REPORTS.put("adm-c", List.of(report));
    try {
      grpc.brokers()
          .reportHealth(
              ReportHealthRequest.newBuilder().setBrokerId("adm-c").addShardStatus(report).build());
      var listed = listedInNs("null");
      assertThat(listed.getName()).isEqualTo("null");
      assertThat(listed.getMetrics().getActiveSubscribers()).isEqualTo(4);
      assertThat(listed.getMetrics().getShardsReporting()).isEqualTo(1);
    } finally {
      REPORTS.remove("adm-c");
    }
  }

  @Test
  void aDeletedStreamIsPurgedAfterItsGracePeriodAndItsNameFreed() throws Exception {
    admin().createStream(create("ns", "short-lived", 1, 1));
    var delete =
        DeleteStreamRequest.newBuilder()
            .setTenantId("admin")
            .setNamespace("ns")
            .setStream("short-lived")
            .build();
    admin().deleteStream(delete);
    assertThat(codeOf(() -> admin().createStream(create("ns", "short-lived", 1, 1))))
        .isEqualTo(Status.Code.ALREADY_EXISTS);
    long deadline = System.nanoTime() + SharedServer.DELETE_GRACE.plusSeconds(20).toNanos();
    Status.Code code = Status.Code.ALREADY_EXISTS;
    while (code == Status.Code.ALREADY_EXISTS && System.nanoTime() < deadline) {
      Thread.sleep(500);
      code = codeOf(() -> admin().createStream(create("ns", "short-lived", 1, 1)));
    }
    assertThat(code).as("the name is free once the purge ran").isEqualTo(Status.Code.OK);
    assertThat(
            codeOf(
                () ->
                    admin()
                        .restoreStream(
                            RestoreStreamRequest.newBuilder()
                                .setTenantId("admin")
                                .setNamespace("ns")
                                .setStream("never-deleted")
                                .build())))
        .isEqualTo(Status.Code.NOT_FOUND);
  }

  @Test
  void listStreamsPagesStablyWhileStreamsAreCreatedAndFilters() throws Exception {
    Http.shared().put("/v1/tenants/admin/namespaces/paging", Http.namespace("admin", "paging", ""));
    for (int i = 0; i < 30; i++) {
      admin().createStream(create("paging", String.format("p%02d", i), 1, 1));
    }
    ExecutorService writer = Executors.newSingleThreadExecutor();
    Future<?> more =
        writer.submit(
            () -> {
              for (int i = 0; i < 20; i++) {
                admin().createStream(create("paging", String.format("a%02d", i), 1, 1));
              }
            });
    Set<String> seen = new HashSet<>();
    String token = "";
    do {
      var page =
          admin()
              .listStreams(
                  ListStreamsRequest.newBuilder()
                      .setTenantId("admin")
                      .setNamespace("paging")
                      .setFilter("p")
                      .setPageSize(7)
                      .setPageToken(token)
                      .build());
      page.getStreamsList()
          .forEach(s -> assertThat(seen.add(s.getName())).as("repeated %s", s.getName()).isTrue());
      token = page.getNextPageToken();
    } while (!token.isEmpty());
    more.get();
    writer.shutdown();
    assertThat(seen).hasSize(30).allMatch(n -> n.startsWith("p"));
    var all =
        admin()
            .listStreams(
                ListStreamsRequest.newBuilder()
                    .setTenantId("admin")
                    .setNamespace("paging")
                    .setPageSize(5000)
                    .build());
    assertThat(all.getStreamsCount()).isEqualTo(50);
    assertThat(
            codeOf(
                () ->
                    admin()
                        .listStreams(
                            ListStreamsRequest.newBuilder()
                                .setTenantId("admin")
                                .setNamespace("pagin")
                                .build())))
        .as("a mistyped namespace is not an empty one")
        .isEqualTo(Status.Code.NOT_FOUND);
    assertThat(
            codeOf(
                () ->
                    admin()
                        .listStreams(
                            ListStreamsRequest.newBuilder()
                                .setTenantId("admin")
                                .setNamespace("paging")
                                .setFilter("a")
                                .setPageToken("bad-token!")
                                .build())))
        .isEqualTo(Status.Code.INVALID_ARGUMENT);
    // A NUL reached the database, which refused it: INTERNAL, where the client made the mistake.
    String nulThenFilter = java.util.Base64.getUrlEncoder().encodeToString("\0\na".getBytes(UTF_8));
    for (var request :
        List.of(
            ListStreamsRequest.newBuilder().setFilter("\0"),
            ListStreamsRequest.newBuilder().setFilter("a").setPageToken(nulThenFilter))) {
      assertThat(
              codeOf(
                  () ->
                      admin()
                          .listStreams(
                              request.setTenantId("admin").setNamespace("paging").build())))
          .as(request.toString())
          .isEqualTo(Status.Code.INVALID_ARGUMENT);
    }
  }

  @Test
  void leadershipMovesOnlyToAnActiveReplica() {
    admin().createStream(create("ns", "lead", 1, 2));
    var shard =
        Http.shared()
            .get("/v1/tenants/admin/namespaces/ns/streams/lead/placement")
            .json()
            .path("spec")
            .path("placements")
            .get(0);
    String leader = shard.path("leader").asText();
    String other = null;
    for (var r : shard.path("replicas")) {
      if (!r.asText().equals(leader)) {
        other = r.asText();
      }
    }
    String target = other;
    var moved =
        admin()
            .transferShardLeadership(
                TransferShardLeadershipRequest.newBuilder()
                    .setStreamId("admin/ns/lead")
                    .setShardId(0)
                    .setTargetBroker(target)
                    .build());
    assertThat(moved.getPreviousLeader()).isEqualTo(leader);
    assertThat(moved.getNewLeader()).isEqualTo(target);
    assertThat(
            Http.shared()
                .get("/v1/tenants/admin/namespaces/ns/streams/lead/placement")
                .json()
                .path("spec")
                .path("placements")
                .get(0)
                .path("leader")
                .asText())
        .isEqualTo(target);
    String outsider =
        List.of(BROKERS).stream()
            .filter(b -> !shard.path("replicas").toString().contains("\"" + b + "\""))
            .findFirst()
            .orElseThrow();
    assertThat(transferCode(0, outsider)).isEqualTo(Status.Code.FAILED_PRECONDITION);
    assertThat(transferCode(9, target)).isEqualTo(Status.Code.NOT_FOUND);
    assertThat(transferCode(0, "no-such-broker"))
        .as("a broker that does not exist, not one without a replica")
        .isEqualTo(Status.Code.NOT_FOUND);
  }

  /** A scope naming what does not exist is NOT_FOUND, not an empty plan read as "balanced". */
  @Test
  void rebalancingWhatDoesNotExistIsNotFound() {
    admin().createStream(create("ns", "rebalanced", 1, 1));
    for (var scope :
        List.of(
            RebalanceShardsRequest.newBuilder().setTenantId("no-such-tenant"),
            RebalanceShardsRequest.newBuilder().setTenantId("admin").setNamespace("no-such-ns"),
            RebalanceShardsRequest.newBuilder()
                .setTenantId("admin")
                .setNamespace("ns")
                .setStream("no-such-stream"))) {
      for (boolean dryRun : List.of(true, false)) {
        assertThat(
                codeOf(
                    () ->
                        admin()
                            .rebalanceShards(
                                scope
                                    .setStrategy(RebalanceStrategy.BALANCED)
                                    .setDryRun(dryRun)
                                    .build())))
            .as(scope + " dry run " + dryRun)
            .isEqualTo(Status.Code.NOT_FOUND);
      }
    }
    assertThat(
            admin()
                .rebalanceShards(
                    RebalanceShardsRequest.newBuilder()
                        .setTenantId("admin")
                        .setNamespace("ns")
                        .setStream("rebalanced")
                        .setStrategy(RebalanceStrategy.BALANCED)
                        .setDryRun(true)
                        .build())
                .getStatus())
        .isIn(RebalanceStatus.REBALANCE_STATUS_NOOP, RebalanceStatus.REBALANCE_STATUS_PLANNED);
  }

  @Test
  void aDrainedBrokerIsEmptiedByRebalanceAndADryRunChangesNothing() {
    Http.shared().put("/v1/tenants/admin/namespaces/drain", Http.namespace("admin", "drain", ""));
    for (int i = 0; i < 6; i++) {
      admin().createStream(create("drain", "d" + i, 4, 2));
    }
    admin()
        .setBrokerStatus(
            SetBrokerStatusRequest.newBuilder()
                .setBrokerId("adm-d")
                .setStatus(BrokerStatus.BROKER_STATUS_DRAINING)
                .build());
    try {
      var scope =
          RebalanceShardsRequest.newBuilder()
              .setTenantId("admin")
              .setNamespace("drain")
              .setStrategy(RebalanceStrategy.MINIMIZE_MOVEMENT);
      List<List<Set<String>>> before = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        before.add(replicaSets("drain", "d" + i));
      }
      boolean drainedHeldReplicas =
          before.stream().flatMap(List::stream).anyMatch(r -> r.contains("adm-d"));
      var plan = admin().rebalanceShards(scope.setDryRun(true).build());
      assertThat(plan.getStatus())
          .isIn(RebalanceStatus.REBALANCE_STATUS_PLANNED, RebalanceStatus.REBALANCE_STATUS_NOOP);
      if (drainedHeldReplicas) {
        assertThat(plan.getMovesList())
            .anyMatch(m -> m.getFromBroker().equals("adm-d") && !m.getLeadership());
      }
      for (int i = 0; i < 6; i++) {
        assertThat(replicaSets("drain", "d" + i))
            .as("a dry run changes nothing")
            .isEqualTo(before.get(i));
      }
      var applied = admin().rebalanceShards(scope.setDryRun(false).build());
      assertThat(applied.getMovementCount()).isEqualTo(plan.getMovementCount());
      for (int i = 0; i < 6; i++) {
        assertThat(replicaSets("drain", "d" + i))
            .allMatch(r -> !r.contains("adm-d") && r.size() == 2);
      }
      admin().createStream(create("drain", "after", 8, 3));
      assertThat(replicaSets("drain", "after"))
          .as("a draining broker takes no new shards")
          .allMatch(r -> !r.contains("adm-d"));
    } finally {
      admin()
          .setBrokerStatus(
              SetBrokerStatusRequest.newBuilder()
                  .setBrokerId("adm-d")
                  .setStatus(BrokerStatus.BROKER_STATUS_ACTIVE)
                  .build());
    }
  }

  @Test
  void theOperatorRemovesABrokerGoneForGoodAndALiveOneIsRefused() throws Exception {
    assertThat(codeOf(() -> admin().removeBroker(remove("adm-a").build())))
        .as("a broker that heartbeats")
        .isEqualTo(Status.Code.FAILED_PRECONDITION);

    register("adm-gone", "zone-8");
    TestDatabase.awaitBrokersDown(List.of("adm-gone"));
    long head = TestDatabase.headVersion();
    var dry = admin().removeBroker(remove("adm-gone").setDryRun(true).build());
    assertThat(dry.getBroker().getName()).isEqualTo("adm-gone");
    assertThat(TestDatabase.headVersion()).as("a dry run publishes nothing").isEqualTo(head);
    var stored = Http.shared().get("/v1/brokers/adm-gone");
    assertThat(stored.status()).isEqualTo(200);
    long version = stored.json().path("metadata").path("version").asLong();
    assertThat(
            codeOf(
                () ->
                    admin()
                        .removeBroker(remove("adm-gone").setExpectedVersion(version - 1).build())))
        .as("a stale expected_version")
        .isEqualTo(Status.Code.FAILED_PRECONDITION);

    var removed = admin().removeBroker(remove("adm-gone").build());
    assertThat(removed.getBroker().getName()).isEqualTo("adm-gone");
    assertThat(removed.getMetadataVersion()).isGreaterThan(head);
    assertThat(Http.shared().get("/v1/brokers/adm-gone").status()).isEqualTo(404);
    assertThat(codeOf(() -> admin().removeBroker(remove("adm-gone").build())))
        .isEqualTo(Status.Code.NOT_FOUND);
  }

  private static RemoveBrokerRequest.Builder remove(String broker) {
    return RemoveBrokerRequest.newBuilder().setBrokerId(broker);
  }

  @Test
  void aBrokerThatGoesDownHandsItsLeadershipsToAnotherActiveReplica() throws Exception {
    register("adm-lone", "zone-9");
    Http.shared()
        .put("/v1/tenants/admin/namespaces/failover", Http.namespace("admin", "failover", ""));
    // Four replicas per shard: at least two of them are on the brokers this class keeps
    // heartbeating.
    admin().createStream(create("failover", "f", 12, 4));
    var before =
        Http.shared()
            .get("/v1/tenants/admin/namespaces/failover/streams/f/placement")
            .json()
            .path("spec")
            .path("placements");
    boolean ledSome = false;
    for (var s : before) {
      ledSome |= s.path("leader").asText().equals("adm-lone");
    }
    // adm-lone is not in the heartbeat loop: it goes down after 3 missed heartbeats.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    boolean down = false;
    while (!down && System.nanoTime() < deadline) {
      down =
          Http.shared()
              .get("/v1/brokers/adm-lone")
              .json()
              .path("spec")
              .path("status")
              .asText()
              .equals("down");
      Thread.sleep(200);
    }
    assertThat(down).isTrue();
    var after =
        Http.shared()
            .get("/v1/tenants/admin/namespaces/failover/streams/f/placement")
            .json()
            .path("spec")
            .path("placements");
    for (var s : after) {
      String leader = s.path("leader").asText();
      assertThat(leader).isNotEqualTo("adm-lone");
      assertThat(
              Http.shared()
                  .get("/v1/brokers/" + leader)
                  .json()
                  .path("spec")
                  .path("status")
                  .asText())
          .isEqualTo("active");
    }
    assertThat(ledSome)
        .as("the idle broker was given leaderships when the stream was created")
        .isTrue();
  }
}
