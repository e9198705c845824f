package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.TestDatabase;
import java.net.http.HttpRequest;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Declarative resources over HTTP: reads, paging, writes, and how bad input is refused. */
class HttpApiIT {

  @AfterAll
  static void brokersMarkedDown() throws Exception {
    TestDatabase.awaitBrokersDown(List.of("place-0", "place-1", "place-2"));
  }

  @BeforeAll
  static void server() throws Exception {
    SharedServer.ensureStarted();
  }

  private final Http http = Http.shared();

  @Test
  void aResourceIsCreatedReplacedAndReadBackWithTheVersionOfItsLastChange() {
    var created = http.put("/v1/tenants/crud", Http.tenant("crud", "first"));
    assertThat(created.status()).isEqualTo(201);
    var replaced = http.put("/v1/tenants/crud", Http.tenant("crud", "second"));
    assertThat(replaced.status()).isEqualTo(200);
    assertThat(replaced.version()).isGreaterThan(created.version());
    var unchanged = http.put("/v1/tenants/crud", Http.tenant("crud", "second"));
    assertThat(unchanged.version())
        .as("an identical PUT is not a change")
        .isEqualTo(replaced.version());

    var read = http.get("/v1/tenants/crud");
    assertThat(read.status()).isEqualTo(200);
    assertThat(read.json().path("spec").path("description").asText()).isEqualTo("second");
    assertThat(read.version()).isEqualTo(replaced.version());
    assertThat(read.json().path("apiVersion").asText()).isEqualTo("controlplane/v1");
    assertThat(read.json().path("kind").asText()).isEqualTo("Tenant");
  }

  /**
   * Java's HttpClient, left at its defaults, asks a plain-HTTP server to upgrade a request to h2c;
   * Liberty's upgrade path once failed such a POST under load (GOAWAY). The server answers the
   * request itself over HTTP/1.1 instead.
   */
  @Test
  void aClientAskingForAnH2cUpgradeIsAnsweredOverHttp11() throws Exception {
    var client = java.net.http.HttpClient.newHttpClient(); // prefers HTTP/2: sends Upgrade: h2c
    var response =
        client.send(
            HttpRequest.newBuilder(
                    java.net.URI.create(
                        "http://127.0.0.1:" + SharedServer.httpPort() + "/v1/tenants/h2c"))
                .header("Authorization", "Bearer " + SharedServer.OPERATOR_TOKEN)
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(Http.tenant("h2c", "upgrade asked")))
                .build(),
            java.net.http.HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
    assertThat(response.version()).isEqualTo(java.net.http.HttpClient.Version.HTTP_1_1);
  }

  @Test
  void yamlDocumentsAreAcceptedAndReturnedOnRequest() {
    String yaml =
        "apiVersion: controlplane/v1\nkind: Tenant\nmetadata:\n  name: yamlco\nspec:\n  description: from yaml\n"
            + "  quotas:\n    max_streams: 10\n    max_storage: 5GiB\n  encryption:\n    rotation_period: 30d\n";
    var created = http.put("/v1/tenants/yamlco", yaml, "application/yaml");
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    var asYaml = http.get("/v1/tenants/yamlco", "application/yaml");
    assertThat(asYaml.contentType()).startsWith("application/yaml");
    assertThat(asYaml.body()).contains("max_storage: 5GiB").contains("rotation_period: 30d");
  }

  @Test
  void aYamlBodyOfSeveralDocumentsIsRefusedWholeNamingTheCount() throws Exception {
    String doc = "apiVersion: controlplane/v1\nkind: Tenant\nspec:\n  description: %s\n";
    String three =
        doc.formatted("one") + "---\n" + doc.formatted("two") + "---\n" + doc.formatted("3");
    long before = TestDatabase.headVersion();
    var reply = http.put("/v1/tenants/multidoc", three, "application/yaml");
    assertThat(reply.status()).as(reply.body()).isEqualTo(400);
    assertThat(reply.contentType()).startsWith("application/problem+json");
    assertThat(reply.json().path("code").asText()).isEqualTo("validation_failed");
    assertThat(reply.json().path("errors").get(0).path("message").asText())
        .contains("3 YAML documents");
    assertThat(http.get("/v1/tenants/multidoc").status()).as("nothing was applied").isEqualTo(404);
    assertThat(TestDatabase.logRows(before)).noneMatch(r -> r.key().equals("multidoc"));

    var single =
        http.put(
            "/v1/tenants/multidoc", "---\n" + doc.formatted("one") + "---\n", "application/yaml");
    assertThat(single.status()).as("one document between markers is one document").isEqualTo(201);
  }

  @Test
  void readsAndWritesCarryTheVersionAsETagAndIfMatchGuardsWrites() throws Exception {
    var created = http.put("/v1/tenants/etags", Http.tenant("etags", "first"));
    String createdTag = etag(created);
    assertThat(createdTag).isEqualTo("\"" + created.version() + "\"");
    var read = http.get("/v1/tenants/etags");
    assertThat(etag(read)).isEqualTo(createdTag);
    assertThat(etag(http.get("/v1/tenants/etags", "application/yaml")))
        .as("one tag per version, whatever the format")
        .isEqualTo(createdTag);

    var current = conditionalPut("/v1/tenants/etags", Http.tenant("etags", "second"), createdTag);
    assertThat(current.status()).isEqualTo(200);
    String currentTag = etag(current);
    assertThat(currentTag).isNotEqualTo(createdTag);

    long before = TestDatabase.headVersion();
    var stale = conditionalPut("/v1/tenants/etags", Http.tenant("etags", "stale"), createdTag);
    assertThat(stale.status()).isEqualTo(412);
    assertThat(stale.contentType()).startsWith("application/problem+json");
    assertThat(stale.json().path("code").asText()).isEqualTo("precondition_failed");
    assertThat(stale.json().path("detail").asText()).contains(currentTag);
    var weak = conditionalPut("/v1/tenants/etags", Http.tenant("etags", "weak"), "W/" + currentTag);
    assertThat(weak.status()).as("a weak tag never matches").isEqualTo(412);
    var bare = conditionalPut("/v1/tenants/etags", Http.tenant("etags", "bare"), "42");
    assertThat(bare.status()).as("an unquoted tag is malformed").isEqualTo(400);
    assertThat(TestDatabase.logRows(before))
        .as("nothing was written")
        .noneMatch(r -> r.key().equals("etags"));
    assertThat(http.get("/v1/tenants/etags").json().path("spec").path("description").asText())
        .isEqualTo("second");

    var createOnly =
        http.send(
            http.request("/v1/tenants/etags")
                .PUT(HttpRequest.BodyPublishers.ofString(Http.tenant("etags", "x")))
                .header("Content-Type", "application/json")
                .header("If-None-Match", "*"));
    assertThat(createOnly.status()).as("If-None-Match: * never replaces").isEqualTo(412);
    var staleDelete =
        http.send(http.request("/v1/tenants/etags").DELETE().header("If-Match", createdTag));
    assertThat(staleDelete.status()).isEqualTo(412);
    var delete =
        http.send(http.request("/v1/tenants/etags").DELETE().header("If-Match", currentTag));
    assertThat(delete.status()).isEqualTo(200);
    assertThat(etag(delete)).isEqualTo("\"" + delete.version() + "\"");
  }

  private Http.Reply conditionalPut(String path, String body, String ifMatch) {
    return http.send(
        http.request(path)
            .PUT(HttpRequest.BodyPublishers.ofString(body))
            .header("Content-Type", "application/json")
            .header("If-Match", ifMatch));
  }

  private static String etag(Http.Reply reply) {
    return reply.raw().headers().firstValue("ETag").orElseThrow(() -> new AssertionError(reply));
  }

  @Test
  void aStreamGetsAPlacementOnActiveBrokersAndIsReadable() throws Exception {
    try (var grpc = dev.controlplane.it.support.Grpc.shared()) {
      for (int i = 0; i < 3; i++) {
        grpc.brokers()
            .registerBroker(
                dev.controlplane.proto.v1.RegisterBrokerRequest.newBuilder()
                    .setBrokerId("place-" + i)
                    .setAddress("127.0.0.1:" + (7100 + i))
                    .putMetadata("availability_zone", "z" + i)
                    .build());
      }
      http.put("/v1/tenants/streams", Http.tenant("streams", "s"));
      http.put("/v1/tenants/streams/namespaces/ns", Http.namespace("streams", "ns", "n"));
      var loadBefore = TestDatabase.brokerLoad();
      var created =
          http.put(
              "/v1/tenants/streams/namespaces/ns/streams/orders",
              Http.stream("streams", "ns", "orders", 4, 3));
      assertThat(created.status()).as(created.body()).isEqualTo(201);
      assertThat(created.json().path("spec").path("retention").path("time").asText())
          .isEqualTo("7d");
      var placement = http.get("/v1/tenants/streams/namespaces/ns/streams/orders/placement");
      assertThat(placement.status()).isEqualTo(200);
      var shards = placement.json().path("spec").path("placements");
      assertThat(shards.size()).isEqualTo(4);
      Map<String, List<Long>> expectedLoad = new TreeMap<>(loadBefore);
      shards.forEach(
          shard -> {
            Set<String> replicas = new HashSet<>();
            shard.path("replicas").forEach(r -> replicas.add(r.asText()));
            assertThat(replicas).hasSize(3);
            assertThat(replicas).contains(shard.path("leader").asText());
            for (String broker : replicas) {
              boolean leads = broker.equals(shard.path("leader").asText());
              expectedLoad.merge(
                  broker,
                  List.of(1L, leads ? 1L : 0L),
                  (a, b) -> List.of(a.get(0) + b.get(0), a.get(1) + b.get(1)));
            }
          });
      assertThat(TestDatabase.brokerLoad())
          .as("the broker_load view counts the new placement's replicas and leaders")
          .isEqualTo(expectedLoad);
      var tooMany =
          http.put(
              "/v1/tenants/streams/namespaces/ns/streams/wide",
              Http.stream("streams", "ns", "wide", 1, 16));
      assertThat(tooMany.status()).isEqualTo(409);
      assertThat(http.get("/v1/tenants/streams/namespaces/ns/streams/wide").status())
          .isEqualTo(404);

      var deleted = http.delete("/v1/tenants/streams/namespaces/ns/streams/orders");
      assertThat(deleted.status()).isEqualTo(200);
      assertThat(http.get("/v1/tenants/streams/namespaces/ns/streams/orders").status())
          .isEqualTo(404);
      assertThat(
              http.put(
                      "/v1/tenants/streams/namespaces/ns/streams/orders",
                      Http.stream("streams", "ns", "orders", 4, 3))
                  .status())
          .as("a deleted stream waits for its purge")
          .isEqualTo(409);
    }
  }

  @Test
  void aListUnderAParentThatDoesNotExistIsA404NamingItAndAnEmptyParentListsNothing() {
    http.put("/v1/tenants/parents", Http.tenant("parents", "p"));
    http.put("/v1/tenants/parents/namespaces/empty", Http.namespace("parents", "empty", ""));

    var tenant = http.get("/v1/tenants/parentz/namespaces");
    assertThat(tenant.status()).as(tenant.body()).isEqualTo(404);
    assertThat(tenant.body()).contains("tenant parentz does not exist");
    var namespace = http.get("/v1/tenants/parents/namespaces/emty/streams");
    assertThat(namespace.status()).as(namespace.body()).isEqualTo(404);
    assertThat(namespace.body()).contains("namespace parents/emty does not exist");
    var both = http.get("/v1/tenants/parentz/namespaces/empty/placements");
    assertThat(both.body()).as("the first missing parent is named").contains("tenant parentz");

    for (String path :
        List.of(
            "/v1/tenants/parents/namespaces/empty/streams",
            "/v1/tenants/parents/namespaces/empty/placements")) {
      var empty = http.get(path);
      assertThat(empty.status()).as(path).isEqualTo(200);
      assertThat(empty.json().path("items").size()).as(path).isZero();
    }
  }

  /** A q that is not a number reached RESTEasy's matching, which failed with a 500. */
  @Test
  void anAcceptWhoseWeightIsNotANumberIsA400NamingTheHeader() {
    var reply = http.get("/v1/tenants", "application/json;q=abc");
    assertThat(reply.status()).as(reply.body()).isEqualTo(400);
    assertThat(reply.contentType()).startsWith("application/problem+json");
    assertThat(reply.body()).contains("\"field\":\"Accept\"");
    assertThat(http.get("/v1/tenants", "application/json;q=0.5, application/yaml").status())
        .isEqualTo(200);
  }

  @Test
  void listsArePagedWithOpaqueTokensWithoutSkippingOrRepeating() {
    http.put("/v1/tenants/paging", Http.tenant("paging", "p"));
    for (int i = 0; i < 25; i++) {
      http.put(
          "/v1/tenants/paging/namespaces/ns-" + String.format("%02d", i),
          Http.namespace("paging", "ns-" + String.format("%02d", i), ""));
    }
    Set<String> seen = new HashSet<>();
    String token = "";
    int pages = 0;
    do {
      var page = http.get("/v1/tenants/paging/namespaces?limit=10&page_token=" + token);
      assertThat(page.status()).isEqualTo(200);
      page.json()
          .path("items")
          .forEach(
              item -> assertThat(seen.add(item.path("metadata").path("name").asText())).isTrue());
      token = page.json().path("next_page_token").asText();
      pages++;
      if (pages == 1) {
        // A namespace created behind the cursor while paging must not shift later pages.
        http.put(
            "/v1/tenants/paging/namespaces/aaa-late", Http.namespace("paging", "aaa-late", ""));
      }
    } while (!token.isEmpty() && pages < 10);
    assertThat(seen).hasSize(25).allMatch(n -> n.startsWith("ns-"));
    assertThat(http.get("/v1/tenants/paging/namespaces?limit=0").status()).isEqualTo(400);
    assertThat(http.get("/v1/tenants/paging/namespaces?page_token=@@@").status()).isEqualTo(400);
  }

  @Test
  void invalidDocumentsAreRefusedWithFieldErrorsAndNothingIsWritten() throws Exception {
    long before = TestDatabase.headVersion();
    http.put("/v1/tenants/valid", Http.tenant("valid", "v"));
    long afterTenant = TestDatabase.headVersion();
    String[] bad = {
      "{\"apiVersion\":\"controlplane/v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"Bad_Name\"}}",
      "{\"apiVersion\":\"controlplane/v2\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"x1\"}}",
      "{\"apiVersion\":\"controlplane/v1\",\"kind\":\"Tenant\",\"metadata\":{\"name\":\"x2\"}}",
      "{\"apiVersion\":\"controlplane/v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"x3\"},\"spec\":{\"quotas\":{\"max_streams\":-1}}}",
      "{\"apiVersion\":\"controlplane/v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"x4\"},\"spec\":{\"colour\":\"blue\"}}",
      "{not json",
      "[]",
    };
    for (String body : bad) {
      var reply = http.put("/v1/tenants/valid/namespaces/x1", body);
      assertThat(reply.status()).as(body).isEqualTo(400);
      assertThat(reply.contentType()).startsWith("application/problem+json");
      assertThat(reply.json().path("code").asText()).isEqualTo("validation_failed");
      assertThat(reply.json().path("status").asInt()).isEqualTo(400);
      assertThat(reply.json().path("detail").asText()).isNotBlank();
    }
    var streamReply =
        http.put(
            "/v1/tenants/valid/namespaces/x1/streams/s",
            "{\"apiVersion\":\"controlplane/v1\",\"kind\":\"Stream\",\"spec\":{\"shards\":0,\"durability\":\"forever\","
                + "\"retention\":{\"time\":\"7days\",\"size\":\"10gb\"},\"ack_policy\":\"all\"}}");
    assertThat(streamReply.status()).isEqualTo(400);
    Set<String> fields = new HashSet<>();
    streamReply.json().path("errors").forEach(e -> fields.add(e.path("field").asText()));
    assertThat(fields)
        .contains(
            "spec.shards",
            "spec.durability",
            "spec.retention.time",
            "spec.retention.size",
            "spec.ack_policy");

    assertThat(TestDatabase.logRows(afterTenant)).noneMatch(r -> r.key().startsWith("valid/"));
    assertThat(http.get("/v1/tenants/valid/namespaces/x1").status()).isEqualTo(404);
    assertThat(before).isLessThan(afterTenant);
  }

  @Test
  void protocolMistakesGetProblemResponsesNotServerErrors() {
    var wrongType =
        http.send(
            http.request("/v1/tenants/pm")
                .PUT(HttpRequest.BodyPublishers.ofString("x"))
                .header("Content-Type", "text/plain"));
    assertThat(wrongType.status()).isEqualTo(415);
    assertThat(wrongType.contentType()).startsWith("application/problem+json");
    assertThat(wrongType.json().path("detail").asText())
        .isEqualTo("unsupported content type; send application/json or application/yaml");

    var huge = http.put("/v1/tenants/pm", "{\"x\":\"" + "a".repeat(1_100_000) + "\"}");
    assertThat(huge.status()).isEqualTo(413);
    assertThat(huge.json().path("code").asText()).isEqualTo("payload_too_large");

    var unknown = http.get("/v1/nothing-here");
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.contentType()).startsWith("application/problem+json");

    var noToken =
        new Http(SharedServer.httpPort(), null).put("/v1/tenants/pm", Http.tenant("pm", ""));
    assertThat(noToken.status()).isEqualTo(401);
    assertThat(noToken.raw().headers().firstValue("WWW-Authenticate"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));

    var missingParent =
        http.put(
            "/v1/tenants/no-such-tenant/namespaces/n", Http.namespace("no-such-tenant", "n", ""));
    assertThat(missingParent.status()).isEqualTo(404);

    http.put("/v1/tenants/pm", Http.tenant("pm", ""));
    http.put("/v1/tenants/pm/namespaces/child", Http.namespace("pm", "child", ""));
    var blocked = http.delete("/v1/tenants/pm");
    assertThat(blocked.status()).isEqualTo(409);
    assertThat(blocked.json().path("code").asText()).isEqualTo("conflict");

    var stale =
        http.put(
            "/v1/tenants/pm",
            "{\"apiVersion\":\"controlplane/v1\",\"kind\":\"Tenant\",\"metadata\":{\"name\":\"pm\",\"version\":1},\"spec\":{}}");
    assertThat(stale.status()).as("optimistic concurrency on metadata.version").isEqualTo(409);
  }

  @Test
  void readinessReportsDatabaseSchemaAndLeadership() {
    var ready = new Http(SharedServer.httpPort(), null).get("/health/ready");
    assertThat(ready.status()).isEqualTo(200);
    var data = ready.json().path("checks").get(0).path("data");
    assertThat(data.path("database").asBoolean()).isTrue();
    assertThat(data.path("schema").asBoolean()).isTrue();
    assertThat(data.path("role").asText()).isEqualTo("leader");
    assertThat(data.path("term").asLong()).isPositive();
    assertThat(data.path("change_log").asText()).isEqualTo("ok");
    assertThat(new Http(SharedServer.httpPort(), null).get("/health/live").status()).isEqualTo(200);
  }
}
