package dev.controlplane.it.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.proto.v1.MetadataUpdate;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writers that create, update and delete the namespaces and streams of one tenant over HTTP, on a
 * few names so that their writes collide inside the leader's batches. Streams go in the first
 * {@code streamNamespaces} namespaces only, so the others can always be deleted. Every answer is
 * checked as it arrives: only what the rules allow, never a 5xx, errors as problem details, and no
 * version acknowledged to two writes.
 */
public final class MixedWrites {

  private final String tenant;
  private final int namespaces;
  private final int streamNamespaces;
  private final int streamsPerNamespace;

  /** "what status" -> how many, e.g. "delete namespace 409". */
  private final Map<String, Integer> answers = new ConcurrentHashMap<>();

  /** Version -> the log entry it must be ("TYPE Kind key"), for writes that made a version. */
  private final Map<Long, String> acknowledged = new ConcurrentHashMap<>();

  /** Version -> key, for PUTs of a stream answered 200: a new UPDATE, or the stream as it was. */
  private final Map<Long, String> streamsAnswered = new ConcurrentHashMap<>();

  public MixedWrites(String tenant, int namespaces, int streamNamespaces, int streamsPerNamespace) {
    this.tenant = tenant;
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
    streamsAnswered.forEach(
        (version, key) ->
            assertThat(log.get(version))
                .as("the log entry at version %d, answered to a PUT of a stream", version)
                .isIn("CREATE Stream " + key, "UPDATE Stream " + key));
  }

  /** An update as a log entry: "TYPE Kind key", as {@link #assertAnswersMatch} compares them. */
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
    String ns = "n" + random.nextInt(pick < 48 ? streamNamespaces : namespaces);
    String stream = "s" + random.nextInt(streamsPerNamespace);
    String nsPath = "/v1/tenants/" + tenant + "/namespaces/" + ns;
    String streamPath = nsPath + "/streams/" + stream;
    String nsKey = tenant + "/" + ns;
    String streamKey = nsKey + "/" + stream;
    if (pick < 40) {
      String retention = random.nextBoolean() ? "1d" : "7d";
      String body =
          "{\"apiVersion\":\"controlplane/v1\",\"kind\":\"Stream\",\"metadata\":{\"name\":\""
              + stream
              + "\",\"namespace\":\""
              + ns
              + "\",\"tenant\":\""
              + tenant
              + "\"},\"spec\":{\"shards\":1,\"replication_factor\":1,\"retention\":{\"time\":\""
              + retention
              + "\"}}}";
      return new Write("create stream", "PUT", streamPath, body, streamKey);
    }
    if (pick < 48) {
      return new Write("delete stream", "DELETE", streamPath, null, streamKey);
    }
    if (pick < 80) {
      return new Write(
          "put namespace", "PUT", nsPath, Http.namespace(tenant, ns, description), nsKey);
    }
    return new Write("delete namespace", "DELETE", nsPath, null, nsKey);
  }

  private void check(Write write, Http http) {
    Http.Reply reply =
        write.method.equals("PUT") ? http.put(write.path, write.body) : http.delete(write.path);
    answers.merge(write.what + " " + reply.status(), 1, Integer::sum);
    assertThat(reply.status()).as("%s: %s", write.what, reply.body()).isIn(write.allowed());
    if (reply.status() >= 400) {
      assertThat(reply.contentType()).startsWith("application/problem+json");
    } else if (write.what.equals("create stream") && reply.status() == 200) {
      // A PUT of a stream as it is answers 200 with the version it already had.
      streamsAnswered.put(reply.version(), write.key);
    } else {
      String earlier = acknowledged.put(reply.version(), write.logged(reply.status()));
      assertThat(earlier).as("version %d acknowledged to two writes", reply.version()).isNull();
    }
  }

  private record Write(String what, String method, String path, String body, String key) {

    /** The answers the rules allow for this write; never a 5xx. */
    Integer[] allowed() {
      return switch (what) {
        case "put namespace" -> new Integer[] {200, 201};
        case "delete namespace" -> new Integer[] {200, 404, 409};
        // 404 without its namespace, 409 while deleting, 429 over the tenant's quota
        case "create stream" -> new Integer[] {200, 201, 404, 409, 429};
        default -> new Integer[] {200, 404};
      };
    }

    /** The log entry of this write's acknowledged version. */
    String logged(int status) {
      return switch (what) {
        case "put namespace" -> (status == 201 ? "CREATE" : "UPDATE") + " Namespace " + key;
        case "delete namespace" -> "DELETE Namespace " + key;
        case "create stream" -> "CREATE Stream " + key;
        default -> "DELETE Stream " + key;
      };
    }
  }
}
