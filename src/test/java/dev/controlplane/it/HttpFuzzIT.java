package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ContainerNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.SharedServer;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The HTTP documents and JSON bodies, valid ones with one to three of their values replaced by
 * something else (another type, an extreme number, an over-long or control-character string, a deep
 * nesting, null, a field removed or an unknown one added). Whatever a client sends gets an answer
 * below 500, in problem+json when it is refused, and the node logs no unexpected failure while the
 * test runs. On the shared node: the documents that are still valid are written, all to the tenant
 * hfuzz (the stream only as a dry run, so no shard is placed on another test's brokers).
 */
class HttpFuzzIT {

  private static final int REQUESTS_PER_BODY = 150;
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private record Target(String method, String path, String body) {}

  private static final List<Target> TARGETS =
      List.of(
          new Target(
              "PUT",
              "/v1/tenants/hfuzz",
              """
              {"apiVersion": "controlplane/v1", "kind": "Tenant", "metadata": {"name": "hfuzz"},
               "spec": {"description": "d", "quotas": {"max_streams": 10, "max_storage": "10GB"},
                        "encryption": {"rotation_period": "30d"}}}"""),
          new Target(
              "PUT",
              "/v1/tenants/hfuzz/namespaces/ns",
              """
              {"apiVersion": "controlplane/v1", "kind": "Namespace",
               "metadata": {"name": "ns", "tenant": "hfuzz"},
               "spec": {"description": "", "quotas": {"max_streams": 5, "max_storage": "1GB"}}}"""),
          new Target(
              "PUT",
              "/v1/tenants/hfuzz/namespaces/ns/streams/s1?dryRun=All",
              """
              {"apiVersion": "controlplane/v1", "kind": "Stream",
               "metadata": {"name": "s1", "tenant": "hfuzz", "namespace": "ns"},
               "spec": {"shards": 2, "replication_factor": 1, "retention": {"time": "7d", "size": "1GB"},
                        "durability": "durable", "ack_policy": "quorum"}}"""),
          new Target(
              "POST",
              "/v1/tenants/hfuzz/rbac/policies",
              """
              {"subject": "role:fuzz", "object": "stream:hfuzz/ns/*", "action": "stream.publish"}"""),
          new Target(
              "POST",
              "/v1/tenants/hfuzz/rbac/groupings",
              """
              {"principal": "group:devs", "role": "role:fuzz"}"""),
          new Target(
              "POST",
              "/v1/tenants/hfuzz/idp-issuers",
              """
              {"issuer": "https://127.0.0.1/", "audiences": ["a"], "jwks_url": "https://127.0.0.1/jwks",
               "claim_mappings": {"subject_claim": "sub", "groups_claim": "groups", "groups_prefix": "idp:"}}"""),
          new Target(
              "POST",
              "/v1/tenants/hfuzz/token/exchange",
              """
              {"requested": ["stream.publish"], "resources": ["stream:hfuzz/ns/*"]}"""));

  @BeforeAll
  static void startServer() throws Exception {
    SharedServer.ensureStarted();
  }

  @Test
  void noBodyAClientCanSendGetsAServerFault() throws Exception {
    int logBefore = SharedServer.process().logText().length();
    Http http = new Http(SharedServer.httpPort(), SharedServer.OPERATOR_TOKEN);
    Random random = new Random(20261128);
    Map<Integer, Integer> statuses = new TreeMap<>();
    List<String> faults = new ArrayList<>();
    int sent = 0;
    for (Target target : TARGETS) {
      JsonNode valid = Http.JSON.readTree(target.body());
      for (int i = 0; i < REQUESTS_PER_BODY; i++) {
        JsonNode body = i == 0 ? valid : mutate(valid.deepCopy(), random);
        Http.Reply reply =
            http.send(
                http.request(target.path())
                    .header("Content-Type", "application/json")
                    .method(target.method(), HttpRequest.BodyPublishers.ofString(body.toString())));
        sent++;
        statuses.merge(reply.status(), 1, Integer::sum);
        if (reply.status() >= 500
            || (reply.status() >= 400
                && !reply.contentType().startsWith("application/problem+json"))) {
          faults.add(
              target.method()
                  + " "
                  + target.path()
                  + " "
                  + body
                  + " -> "
                  + reply.status()
                  + " "
                  + reply.body());
        }
      }
    }
    System.out.println("HttpFuzzIT statuses " + statuses);
    assertThat(sent).isEqualTo(TARGETS.size() * REQUESTS_PER_BODY);
    assertThat(faults).as("answers that are server faults or not problem+json").isEmpty();
    assertThat(statuses.keySet()).as("some mutated bodies stay valid").containsAnyOf(200, 201);
    assertThat(SharedServer.process().logText().substring(logBefore))
        .doesNotContain("unexpected failure");
  }

  /** One to three changes at random places of {@code document}. */
  private static JsonNode mutate(JsonNode document, Random random) {
    int changes = 1 + random.nextInt(3);
    for (int c = 0; c < changes; c++) {
      List<ContainerNode<?>> containers = new ArrayList<>();
      collect(document, containers);
      ContainerNode<?> parent = containers.get(random.nextInt(containers.size()));
      if (parent instanceof ObjectNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        int choice = random.nextInt(10);
        if (names.isEmpty() || choice == 0) {
          object.set("unknown_" + random.nextInt(100), hostile(random).get());
        } else if (choice == 1) {
          object.remove(names.get(random.nextInt(names.size())));
        } else {
          object.set(names.get(random.nextInt(names.size())), hostile(random).get());
        }
      } else if (parent instanceof ArrayNode array) {
        if (array.isEmpty() || random.nextBoolean()) {
          array.add(hostile(random).get());
        } else {
          array.set(random.nextInt(array.size()), hostile(random).get());
        }
      }
    }
    return document;
  }

  private static void collect(JsonNode node, List<ContainerNode<?>> out) {
    if (node instanceof ContainerNode<?> container) {
      out.add(container);
      node.elements().forEachRemaining(child -> collect(child, out));
    }
  }

  private static Supplier<JsonNode> hostile(Random random) {
    List<Supplier<JsonNode>> values =
        List.of(
            NODES::nullNode,
            () -> NODES.numberNode(-1),
            () -> NODES.numberNode(0),
            () -> NODES.numberNode(Long.MAX_VALUE),
            () -> NODES.numberNode(new java.math.BigInteger("123456789012345678901234567890")),
            () -> NODES.numberNode(1e308),
            () -> NODES.numberNode(2.5),
            () -> NODES.booleanNode(true),
            () -> NODES.textNode(""),
            () -> NODES.textNode("x".repeat(5000)),
            () -> NODES.textNode("a\u0000b"),
            () -> NODES.textNode("Ünïcödé ✓"),
            () -> NODES.textNode("7d"),
            () -> NODES.textNode("-5GB"),
            () -> NODES.textNode("role:fuzz"),
            () -> NODES.textNode("stream:other/ns/*"),
            NODES::arrayNode,
            NODES::objectNode,
            () -> NODES.arrayNode().add(1).add("two"),
            () -> {
              ArrayNode deep = NODES.arrayNode();
              ArrayNode at = deep;
              for (int i = 0; i < 40; i++) {
                at = at.addArray();
              }
              return deep;
            });
    return values.get(random.nextInt(values.size()));
  }
}
