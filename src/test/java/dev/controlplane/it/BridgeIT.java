package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.it.support.Auth;
import dev.controlplane.it.support.Grpc;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.LiveBrokers;
import dev.controlplane.it.support.OidcProvider;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.Snapshots;
import dev.controlplane.it.support.TestDatabase;
import dev.controlplane.it.support.WatchCollector;
import dev.controlplane.proto.v1.Bridge;
import dev.controlplane.proto.v1.BridgeStream;
import dev.controlplane.proto.v1.MetadataUpdate;
import dev.controlplane.proto.v1.UpdateType;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Bridges over HTTP on a real server: written by the operator, versioned and watched like every
 * kind, in snapshots, checked against the streams they name, and holding those streams in place.
 */
class BridgeIT {

  private static LiveBrokers brokers;
  private final Http http = Http.shared();

  @BeforeAll
  static void server() throws Exception {
    SharedServer.ensureStarted();
    brokers = new LiveBrokers("bridge-a");
    Http http = Http.shared();
    for (String tenant : List.of("bra", "brb")) {
      http.put("/v1/tenants/" + tenant, Http.tenant(tenant, ""));
      http.put("/v1/tenants/" + tenant + "/namespaces/ns", Http.namespace(tenant, "ns", ""))
          .status();
    }
    for (String path :
        List.of("bra/namespaces/ns/streams/orders", "brb/namespaces/ns/streams/audit")) {
      String[] p = path.split("/");
      var created = http.put("/v1/tenants/" + path, Http.stream(p[0], "ns", p[4], 1, 1));
      assertThat(created.status()).as(created.body()).isIn(200, 201);
    }
  }

  @AfterAll
  static void close() throws Exception {
    brokers.close();
  }

  private static String bridge(String source, String target, String... streams) {
    StringBuilder list = new StringBuilder();
    for (String s : streams) {
      String[] p = s.split("/");
      list.append(list.isEmpty() ? "" : ", ")
          .append("{tenant: ")
          .append(p[0])
          .append(", namespace: ")
          .append(p[1])
          .append(", stream: ")
          .append(p[2])
          .append('}');
    }
    return "apiVersion: controlplane/v1\nkind: Bridge\nspec:\n  source_region: "
        + source
        + "\n  target_region: "
        + target
        + "\n  streams: ["
        + list
        + "]\n  encryption: {key_id: kms-7}\n";
  }

  @Test
  void aBridgeIsVersionedWatchedAndInTheSnapshotLikeEveryKind() throws Exception {
    long head = TestDatabase.headVersion();
    try (Grpc grpc = new Grpc(SharedServer.grpcPort(), SharedServer.BROKER_TOKEN);
        WatchCollector watch = WatchCollector.open(grpc.metadataAsync(), head)) {
      var created =
          http.put(
              "/v1/bridges/eu-us",
              bridge("eu-west-1", "us-east-1", "bra/ns/orders", "brb/ns/audit"),
              "application/yaml");
      assertThat(created.status()).as(created.body()).isEqualTo(201);
      assertThat(created.version()).isEqualTo(head + 1);
      var again =
          http.put(
              "/v1/bridges/eu-us",
              bridge("eu-west-1", "us-east-1", "bra/ns/orders", "brb/ns/audit"),
              "application/yaml");
      assertThat(again.status()).isEqualTo(200);
      assertThat(again.version()).as("an identical document is unchanged").isEqualTo(head + 1);
      var narrowed =
          http.put(
              "/v1/bridges/eu-us",
              bridge("eu-west-1", "us-east-1", "brb/ns/audit"),
              "application/yaml");
      assertThat(narrowed.version()).isEqualTo(head + 2);

      var read = http.get("/v1/bridges/eu-us").json();
      assertThat(read.path("spec").path("streams").toString())
          .isEqualTo("[{\"tenant\":\"brb\",\"namespace\":\"ns\",\"stream\":\"audit\"}]");
      assertThat(read.path("spec").path("encryption").path("key_id").asText()).isEqualTo("kms-7");
      assertThat(http.get("/v1/bridges").json().path("items").size()).isGreaterThanOrEqualTo(1);

      assertThat(watch.awaitVersion(head + 2, Duration.ofSeconds(10))).as(watch.state()).isTrue();
      List<MetadataUpdate> updates = watch.updates();
      assertThat(updates)
          .extracting(MetadataUpdate::getType)
          .containsExactly(UpdateType.CREATE, UpdateType.UPDATE);
      Bridge watched = updates.get(1).getBridge();
      assertThat(watched.getSourceRegion()).isEqualTo("eu-west-1");
      assertThat(watched.getStreamsList())
          .containsExactly(
              BridgeStream.newBuilder()
                  .setTenant("brb")
                  .setNamespace("ns")
                  .setStream("audit")
                  .build());
      assertThat(watched.getEncryption().getKeyId()).isEqualTo("kms-7");

      var snapshot = Snapshots.take(grpc, 0);
      assertThat(snapshot.metadata().getBridgesList())
          .filteredOn(b -> b.getName().equals("eu-us"))
          .containsExactly(watched);
      assertThat(Snapshots.take(grpc, head + 1).metadata().getBridgesList())
          .filteredOn(b -> b.getName().equals("eu-us"))
          .singleElement()
          .satisfies(b -> assertThat(b.getStreamsCount()).as("at its first version").isEqualTo(2));

      var audited = http.get("/v1/audit?operation=bridge.update").json().path("records");
      assertThat(audited.findValuesAsText("resource")).contains("bridge:eu-us");
      assertThat(audited.get(0).path("principal_type").asText()).isEqualTo("operator");
      assertThat(audited.get(0).path("tenant").isNull()).as("a bridge is of no tenant").isTrue();

      var deleted = http.delete("/v1/bridges/eu-us");
      assertThat(deleted.status()).isEqualTo(200);
      assertThat(http.get("/v1/bridges/eu-us").status()).isEqualTo(404);
      assertThat(watch.awaitVersion(head + 3, Duration.ofSeconds(10))).isTrue();
      assertThat(watch.updates().get(2).getType()).isEqualTo(UpdateType.DELETE);
      assertThat(watch.updates().get(2).getBridge().getName()).isEqualTo("eu-us");
    }
  }

  @Test
  void aBridgeMustNameStreamsThatExistAndEveryMistakeIsNamed() throws Exception {
    long head = TestDatabase.headVersion();
    var missing =
        http.put(
            "/v1/bridges/typo",
            bridge("eu", "us", "bra/ns/orders", "bra/ns/ordres", "nobody/ns/x"),
            "application/yaml");
    assertThat(missing.status()).as(missing.body()).isEqualTo(400);
    assertThat(missing.contentType()).startsWith("application/problem+json");
    assertThat(missing.body())
        .contains("spec.streams[1]", "stream bra/ns/ordres does not exist")
        .contains("spec.streams[2]", "stream nobody/ns/x does not exist")
        .doesNotContain("spec.streams[0]");

    var sameRegion = http.put("/v1/bridges/loop", bridge("eu", "eu"), "application/yaml");
    assertThat(sameRegion.status()).isEqualTo(400);
    assertThat(sameRegion.body()).contains("spec.target_region", "must differ");

    var otherName =
        http.put(
            "/v1/bridges/one",
            "{\"apiVersion\":\"controlplane/v1\",\"kind\":\"Bridge\",\"metadata\":{\"name\":"
                + "\"two\"},\"spec\":{\"source_region\":\"a\",\"target_region\":\"b\"}}");
    assertThat(otherName.status()).isEqualTo(400);
    assertThat(otherName.body()).contains("metadata.name");
    assertThat(http.put("/v1/bridges/Bad_Name", bridge("a", "b"), "application/yaml").status())
        .isEqualTo(400);
    assertThat(TestDatabase.headVersion()).as("nothing refused was versioned").isEqualTo(head);
  }

  @Test
  void aStreamABridgeCarriesCannotBeDeletedEvenWithForceUntilItIsRemoved() {
    http.put("/v1/tenants/bra/namespaces/ns/streams/kept", Http.stream("bra", "ns", "kept", 1, 1));
    assertThat(
            http.put("/v1/bridges/keeper", bridge("a", "b", "bra/ns/kept"), "application/yaml")
                .status())
        .isEqualTo(201);

    var refused = http.delete("/v1/tenants/bra/namespaces/ns/streams/kept?force=true");
    assertThat(refused.status()).as(refused.body()).isEqualTo(409);
    assertThat(refused.body()).contains("is carried by bridge(s) keeper", "remove it from them");
    assertThat(http.get("/v1/tenants/bra/namespaces/ns/streams/kept").status()).isEqualTo(200);

    assertThat(http.put("/v1/bridges/keeper", bridge("a", "b"), "application/yaml").status())
        .isEqualTo(200);
    assertThat(http.delete("/v1/tenants/bra/namespaces/ns/streams/kept").status()).isEqualTo(200);
    var gone = http.put("/v1/bridges/keeper", bridge("a", "b", "bra/ns/kept"), "application/yaml");
    assertThat(gone.status())
        .as("a stream waiting for its purge cannot be bridged: %s", gone.body())
        .isEqualTo(400);
  }

  /**
   * A bridge naming a stream and the stream's deletion sent at once, twenty times: the pipeline
   * orders them, so exactly one succeeds each time, and no bridge ever names a deleted stream.
   */
  @Test
  void aBridgeAndTheDeletionOfItsStreamSentAtOnceNeverBothSucceed() throws Exception {
    int bridged = 0;
    for (int i = 0; i < 20; i++) {
      String stream = "race" + i;
      String path = "/v1/tenants/bra/namespaces/ns/streams/" + stream;
      assertThat(http.put(path, Http.stream("bra", "ns", stream, 1, 1)).status()).isEqualTo(201);
      String doc = bridge("a", "b", "bra/ns/" + stream);
      var bridge =
          java.util.concurrent.CompletableFuture.supplyAsync(
              () -> http.put("/v1/bridges/race", doc, "application/yaml"));
      var delete = java.util.concurrent.CompletableFuture.supplyAsync(() -> http.delete(path));
      int bridgeStatus = bridge.get().status();
      int deleteStatus = delete.get().status();
      String round = "round " + i + ": bridge " + bridgeStatus + ", delete " + deleteStatus;
      if (bridgeStatus == 200 || bridgeStatus == 201) {
        bridged++;
        assertThat(deleteStatus).as(round).isEqualTo(409);
        assertThat(http.get(path).json().path("status").path("state").asText())
            .as(round)
            .isEqualTo("active");
        assertThat(http.put("/v1/bridges/race", bridge("a", "b"), "application/yaml").status())
            .isEqualTo(200);
        assertThat(http.delete(path).status()).isEqualTo(200);
      } else {
        assertThat(bridgeStatus).as(round).isEqualTo(400);
        assertThat(deleteStatus).as(round).isEqualTo(200);
      }
    }
    System.out.printf("bridge won %d of 20 races with the deletion of its stream%n", bridged);
    http.delete("/v1/bridges/race");
  }

  @Test
  void onlyTheOperatorWritesBridgesAndOnlyPlatformCredentialsReadThem() {
    Auth.bootstrap("brreader", "idp-brreader", null, "alice");
    String tenantToken =
        Auth.serviceToken("brreader", OidcProvider.token("idp-brreader", "alice", Map.of()), "{}");
    Http tenant = new Http(SharedServer.httpPort(), tenantToken);
    Http broker = new Http(SharedServer.httpPort(), SharedServer.BROKER_TOKEN);
    Http nobody = new Http(SharedServer.httpPort(), null);
    assertThat(http.put("/v1/bridges/guarded", bridge("a", "b"), "application/yaml").status())
        .isEqualTo(201);

    var tenantRead = tenant.get("/v1/bridges/guarded");
    assertThat(tenantRead.status()).isEqualTo(403);
    assertThat(tenantRead.body()).contains("several tenants");
    assertThat(tenant.get("/v1/bridges").status()).isEqualTo(403);
    assertThat(tenant.put("/v1/bridges/guarded", bridge("a", "c"), "application/yaml").status())
        .isEqualTo(403);
    assertThat(tenant.delete("/v1/bridges/guarded").status()).isEqualTo(403);
    assertThat(nobody.get("/v1/bridges").status()).isEqualTo(401);

    assertThat(broker.get("/v1/bridges/guarded").status()).isEqualTo(200);
    assertThat(broker.put("/v1/bridges/guarded", bridge("a", "c"), "application/yaml").status())
        .as("the broker credential reads, it does not administer")
        .isIn(401, 403);
    assertThat(broker.delete("/v1/bridges/guarded").status()).isIn(401, 403);
    assertThat(http.get("/v1/bridges/guarded").json().path("spec").path("target_region").asText())
        .isEqualTo("b");
  }
}
