package dev.controlplane.it.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.proto.v1.AdminServiceGrpc;
import dev.controlplane.proto.v1.CreateStreamRequest;
import dev.controlplane.proto.v1.DeleteStreamRequest;
import dev.controlplane.proto.v1.MetadataUpdate;
import dev.controlplane.proto.v1.RestoreStreamRequest;
import dev.controlplane.proto.v1.RetentionPolicy;
import dev.controlplane.proto.v1.StreamSpec;
import dev.controlplane.proto.v1.TransferShardLeadershipRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writers that create, update and delete the namespaces and streams of one tenant, on a few names
 * so that their writes collide inside the leader's batches: namespaces over HTTP; streams created
 * and deleted over HTTP and over gRPC ({@code AdminService}), restored and their shard leadership
 * transferred over gRPC. Streams go in the first {@code streamNamespaces} namespaces only, so the
 * others can always be deleted; each has one shard on both of two brokers. Every answer is checked
 * as it arrives: only what the rules allow (never a 5xx, never INTERNAL or UNKNOWN), HTTP errors as
 * problem details, and no version acknowledged to two writes.
 */
public final class MixedWrites {

  private final String tenant;
  private final AdminServiceGrpc.AdminServiceBlockingStub admin;
  private final List<String> brokers;
  private final int namespaces;
  private final int streamNamespaces;
  private final int streamsPerNamespace;

  /** "what status" -> how many, e.g. "delete namespace 409". */
  private final Map<String, Integer> answers = new ConcurrentHashMap<>();

  /** Version -> the log entry it must be ("TYPE Kind key"), for writes that made a version. */
  private final Map<Long, String> acknowledged = new ConcurrentHashMap<>();

  /** Version -> entries it may be, for a PUT of a stream as it is, answered with its version. */
  private final Map<Long, List<String>> answeredEarlier = new ConcurrentHashMap<>();

  /**
   * {@code admin} reaches the leader with the operator's token; {@code brokers}: the two live
   * brokers the streams are placed on.
   */
  public MixedWrites(
      String tenant,
      AdminServiceGrpc.AdminServiceBlockingStub admin,
      List<String> brokers,
      int namespaces,
      int streamNamespaces,
      int streamsPerNamespace) {
    assertThat(brokers).hasSize(2);
    this.tenant = tenant;
    this.admin = admin;
    this.brokers = brokers;
    this.namespaces = namespaces;
    this.streamNamespaces = streamNamespaces;
    this.streamsPerNamespace = streamsPerNamespace;
  }

  /** The tenant's document, with a quota of {@code maxStreams}. */
  public static String tenantDocument(String tenant, int maxStreams) {
    return "{\"apiVersion\":\"controlplane/v1\",\"kind\":\"Tenant\",\"metadata\":{\"name\":\""
        + tenant
        + "\"},\"spec\":{\"quotas\":{\"max_streams\":"
        + maxStreams
        + "}}}";
  }

  /**
   * Runs {@code writers} writers against {@code http} for {@code duration}; seeds derive from seed.
   */
  public void run(Http http, int writers, Duration duration, long seed) throws Exception {
    System.out.println("MixedWrites seed " + seed);
    Writers.runConcurrently(
        writers,
        writer -> {
          Random random = new Random(seed + writer);
          long end = System.nanoTime() + duration.toNanos();
          for (int i = 0; System.nanoTime() < end; i++) {
            check(next(random, "writer " + writer + " write " + i), http);
          }
        });
    System.out.println("MixedWrites answers " + answers());
  }

  /** How many answers of each kind, e.g. "delete namespace 409" -> 12. */
  public Map<String, Integer> answers() {
    return new TreeMap<>(answers);
  }

  /** Every version a writer was answered with is {@code log}'s entry for its write. */
  public void assertAnswersMatch(Map<Long, String> log) {
    acknowledged.forEach(
        (version, entry) ->
            assertThat(log.get(version))
                .as("the log entry at acknowledged version %d", version)
                .isEqualTo(entry));
    answeredEarlier.forEach(
        (version, entries) ->
            assertThat(log.get(version))
                .as(
                    "the log entry at version %d, answered to a write that may change nothing",
                    version)
                .isIn(entries));
  }

  /** A row of the log as {@link #assertAnswersMatch} compares them: "TYPE Kind key". */
  public static String describe(TestDatabase.LogRow row) {
    return row.type() + " " + row.kind() + " " + row.key();
  }

  /** An update as its log entry, in the form of {@link #describe(TestDatabase.LogRow)}. */
  public static String describe(MetadataUpdate update) {
    String kind;
    String key;
    switch (update.getPayloadCase()) {
      case NAMESPACE -> {
        kind = "Namespace";
        key = update.getNamespace().getTenant() + "/" + update.getNamespace().getName();
      }
      case STREAM -> {
        var s = update.getStream();
        kind = "Stream";
        key = s.getTenant() + "/" + s.getNamespace() + "/" + s.getName();
      }
      case PLACEMENT -> {
        var p = update.getPlacement();
        kind = "ShardPlacement";
        key = p.getTenant() + "/" + p.getNamespace() + "/" + p.getStream();
      }
      case TENANT -> {
        kind = "Tenant";
        key = update.getTenant().getName();
      }
      case BROKER -> {
        kind = "Broker";
        key = update.getBroker().getName();
      }
      default -> throw new AssertionError("an update without a payload: " + update);
    }
    return update.getType().name() + " " + kind + " " + key;
  }

  private Write next(Random random, String description) {
    int pick = random.nextInt(100);
    String ns = "n" + random.nextInt(pick < 50 ? streamNamespaces : namespaces);
    String stream = "s" + random.nextInt(streamsPerNamespace);
    String nsKey = tenant + "/" + ns;
    String streamKey = nsKey + "/" + stream;
    boolean overGrpc = random.nextBoolean();
    if (pick < 34) {
      return new Write(
          overGrpc ? Op.GRPC_CREATE_STREAM : Op.PUT_STREAM,
          ns,
          stream,
          streamKey,
          random.nextBoolean() ? "1d" : "7d");
    }
    if (pick < 42) {
      return new Write(
          overGrpc ? Op.GRPC_DELETE_STREAM : Op.DELETE_STREAM, ns, stream, streamKey, null);
    }
    if (pick < 46) {
      return new Write(Op.GRPC_RESTORE_STREAM, ns, stream, streamKey, null);
    }
    if (pick < 50) {
      return new Write(
          Op.GRPC_TRANSFER_LEADERSHIP, ns, stream, streamKey, brokers.get(random.nextInt(2)));
    }
    if (pick < 80) {
      return new Write(Op.PUT_NAMESPACE, ns, null, nsKey, description);
    }
    return new Write(Op.DELETE_NAMESPACE, ns, null, nsKey, null);
  }

  private void check(Write write, Http http) {
    if (write.op.overGrpc) {
      checkGrpc(write);
      return;
    }
    String nsPath = "/v1/tenants/" + tenant + "/namespaces/" + write.ns;
    String streamPath = nsPath + "/streams/" + write.stream;
    Http.Reply reply =
        switch (write.op) {
          case PUT_NAMESPACE -> http.put(nsPath, Http.namespace(tenant, write.ns, write.detail));
          case DELETE_NAMESPACE -> http.delete(nsPath);
          case PUT_STREAM -> http.put(streamPath, streamDocument(write));
          default -> http.delete(streamPath);
        };
    answers.merge(write.op.label + " " + reply.status(), 1, Integer::sum);
    assertThat(reply.status())
        .as("%s: %s", write.op.label, reply.body())
        .isIn(write.op.allowedHttp);
    if (reply.status() >= 400) {
      assertThat(reply.contentType()).startsWith("application/problem+json");
      return;
    }
    long version = reply.version();
    switch (write.op) {
      case PUT_NAMESPACE ->
          acknowledge(
              version, (reply.status() == 201 ? "CREATE" : "UPDATE") + " Namespace " + write.key);
      case DELETE_NAMESPACE -> acknowledge(version, "DELETE Namespace " + write.key);
      case PUT_STREAM -> {
        if (reply.status() == 201) {
          acknowledge(version, "CREATE Stream " + write.key);
        } else { // an UPDATE, or the stream as it was with the version it already had
          answeredEarlier.put(
              version, List.of("CREATE Stream " + write.key, "UPDATE Stream " + write.key));
        }
      }
      default -> acknowledge(version, "DELETE Stream " + write.key);
    }
  }

  private void checkGrpc(Write write) {
    Status.Code code;
    long version = 0;
    try {
      version =
          switch (write.op) {
            case GRPC_CREATE_STREAM ->
                admin
                    .createStream(
                        CreateStreamRequest.newBuilder()
                            .setTenantId(tenant)
                            .setNamespace(write.ns)
                            .setStream(write.stream)
                            .setSpec(
                                StreamSpec.newBuilder()
                                    .setShards(1)
                                    .setReplicationFactor(2)
                                    .setRetention(
                                        RetentionPolicy.newBuilder().setTime(write.detail)))
                            .build())
                    .getMetadataVersion();
            case GRPC_DELETE_STREAM ->
                admin
                    .deleteStream(
                        DeleteStreamRequest.newBuilder()
                            .setTenantId(tenant)
                            .setNamespace(write.ns)
                            .setStream(write.stream)
                            .build())
                    .getMetadataVersion();
            case GRPC_RESTORE_STREAM ->
                admin
                    .restoreStream(
                        RestoreStreamRequest.newBuilder()
                            .setTenantId(tenant)
                            .setNamespace(write.ns)
                            .setStream(write.stream)
                            .build())
                    .getMetadataVersion();
            default -> {
              var transfer =
                  admin.transferShardLeadership(
                      TransferShardLeadershipRequest.newBuilder()
                          .setStreamId(write.key)
                          .setShardId(0)
                          .setTargetBroker(write.detail)
                          .build());
              assertThat(transfer.getNewLeader()).isEqualTo(write.detail);
              // To the shard's leader nothing changes, and the answer is the current version
              // (admin_service.proto): it names no log entry of this stream.
              yield transfer.getPreviousLeader().equals(write.detail)
                  ? -1
                  : transfer.getMetadataVersion();
            }
          };
      code = Status.Code.OK;
    } catch (StatusRuntimeException e) {
      code = e.getStatus().getCode();
      assertThat(e.getStatus().getDescription())
          .as("%s: %s says why", write.op.label, code)
          .isNotBlank();
    }
    answers.merge(write.op.label + " " + code, 1, Integer::sum);
    assertThat(code).as("%s", write.op.label).isIn(write.op.allowedGrpc);
    if (code != Status.Code.OK) {
      return;
    }
    switch (write.op) {
      case GRPC_CREATE_STREAM, GRPC_RESTORE_STREAM ->
          acknowledge(version, "CREATE Stream " + write.key);
      case GRPC_DELETE_STREAM -> acknowledge(version, "DELETE Stream " + write.key);
      default -> {
        if (version >= 0) {
          acknowledge(version, "UPDATE ShardPlacement " + write.key);
        }
      }
    }
  }

  private void acknowledge(long version, String entry) {
    String earlier = acknowledged.put(version, entry);
    assertThat(earlier).as("version %d acknowledged to two writes", version).isNull();
  }

  private String streamDocument(Write write) {
    return "{\"apiVersion\":\"controlplane/v1\",\"kind\":\"Stream\",\"metadata\":{\"name\":\""
        + write.stream
        + "\",\"namespace\":\""
        + write.ns
        + "\",\"tenant\":\""
        + tenant
        + "\"},\"spec\":{\"shards\":1,\"replication_factor\":2,\"retention\":{\"time\":\""
        + write.detail
        + "\"}}}";
  }

  /** The writes of the mix, with the answers the rules allow for each. */
  private enum Op {
    PUT_NAMESPACE("put namespace", false, new Integer[] {200, 201}),
    DELETE_NAMESPACE("delete namespace", false, new Integer[] {200, 404, 409}),
    // 404 without its namespace, 409 while deleting, 429 over the tenant's quota
    PUT_STREAM("create stream", false, new Integer[] {200, 201, 404, 409, 429}),
    DELETE_STREAM("delete stream", false, new Integer[] {200, 404}),
    GRPC_CREATE_STREAM(
        "grpc create stream",
        true,
        null,
        Status.Code.OK,
        Status.Code.NOT_FOUND,
        Status.Code.ALREADY_EXISTS,
        Status.Code.RESOURCE_EXHAUSTED),
    GRPC_DELETE_STREAM("grpc delete stream", true, null, Status.Code.OK, Status.Code.NOT_FOUND),
    GRPC_RESTORE_STREAM(
        "grpc restore stream",
        true,
        null,
        Status.Code.OK,
        Status.Code.NOT_FOUND,
        Status.Code.RESOURCE_EXHAUSTED),
    GRPC_TRANSFER_LEADERSHIP(
        "grpc transfer leadership", true, null, Status.Code.OK, Status.Code.NOT_FOUND);

    final String label;
    final boolean overGrpc;
    final Integer[] allowedHttp;
    final Status.Code[] allowedGrpc;

    Op(String label, boolean overGrpc, Integer[] allowedHttp, Status.Code... allowedGrpc) {
      this.label = label;
      this.overGrpc = overGrpc;
      this.allowedHttp = allowedHttp;
      this.allowedGrpc = allowedGrpc;
    }
  }

  /** {@code detail}: a namespace's description, a stream's retention, a transfer's target. */
  private record Write(Op op, String ns, String stream, String key, String detail) {}
}
