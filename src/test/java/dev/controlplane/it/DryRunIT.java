package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.controlplane.it.support.Grpc;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.LiveBrokers;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.TestDatabase;
import dev.controlplane.proto.v1.AdminServiceGrpc;
import dev.controlplane.proto.v1.BrokerStatus;
import dev.controlplane.proto.v1.SetBrokerStatusRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code ?dryRun=All} on every metadata write, and SetBrokerStatus's {@code dry_run}: the same
 * answer as the real write, and nothing stored, published or versioned.
 */
class DryRunIT {

  private static LiveBrokers brokers;
  private static Grpc operator;
  private final Http http = Http.shared();

  @BeforeAll
  static void server() throws Exception {
    SharedServer.ensureStarted();
    brokers = new LiveBrokers("dry-a", "dry-b");
    operator = new Grpc(SharedServer.grpcPort(), SharedServer.OPERATOR_TOKEN);
  }

  @AfterAll
  static void close() throws Exception {
    brokers.close();
    operator.close();
  }

  @Test
  void aDryRunAnswersLikeTheWriteButStoresAndPublishesNothing() throws Exception {
    long head = TestDatabase.headVersion();
    var created = http.put("/v1/tenants/dry?dryRun=All", Http.tenant("dry", "first"));
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    assertThat(created.version()).as("the version it would take").isEqualTo(head + 1);
    assertThat(http.get("/v1/tenants/dry").status()).isEqualTo(404);
    assertThat(TestDatabase.headVersion()).as("no version used").isEqualTo(head);
    assertThat(TestDatabase.logRows(head)).as("no update published").isEmpty();

    long stored = http.put("/v1/tenants/dry", Http.tenant("dry", "first")).version();
    var changed = http.put("/v1/tenants/dry?dryRun=All", Http.tenant("dry", "second"));
    assertThat(changed.status()).isEqualTo(200);
    assertThat(changed.version()).isGreaterThan(stored);
    assertThat(changed.json().path("spec").path("description").asText()).isEqualTo("second");
    var unchanged = http.put("/v1/tenants/dry?dryRun=All", Http.tenant("dry", "first"));
    assertThat(unchanged.version()).as("an identical document is unchanged").isEqualTo(stored);
    assertThat(http.get("/v1/tenants/dry").json().path("spec").path("description").asText())
        .isEqualTo("first");

    String stale =
        "{\"apiVersion\":\"controlplane/v1\",\"kind\":\"Tenant\",\"metadata\":{\"version\":"
            + (stored - 1)
            + "},\"spec\":{\"description\":\"third\"}}";
    assertThat(http.put("/v1/tenants/dry?dryRun=All", stale).status())
        .as("preconditions are checked")
        .isEqualTo(409);
    assertThat(http.put("/v1/tenants/dry?dryRun=yes", Http.tenant("dry", "x")).status())
        .isEqualTo(400);
  }

  @Test
  void streamRulesRunInADryRunAndADeleteOnlyShowsItsResult() throws Exception {
    http.put("/v1/tenants/dryst", Http.tenant("dryst", ""));
    http.put("/v1/tenants/dryst/namespaces/ns", Http.namespace("dryst", "ns", ""));
    long head = TestDatabase.headVersion();
    var load = TestDatabase.brokerLoad();
    var wide =
        http.put(
            "/v1/tenants/dryst/namespaces/ns/streams/wide?dryRun=All",
            Http.stream("dryst", "ns", "wide", 1, 16));
    assertThat(wide.status()).as("placement needs 16 brokers").isEqualTo(409);
    var planned =
        http.put(
            "/v1/tenants/dryst/namespaces/ns/streams/s?dryRun=All",
            Http.stream("dryst", "ns", "s", 2, 1));
    assertThat(planned.status()).as(planned.body()).isEqualTo(201);
    assertThat(TestDatabase.headVersion()).isEqualTo(head);
    assertThat(TestDatabase.brokerLoad()).as("no placement was kept").isEqualTo(load);
    assertThat(http.get("/v1/tenants/dryst/namespaces/ns/streams/s").status()).isEqualTo(404);

    http.put("/v1/tenants/dryst/namespaces/ns/streams/s", Http.stream("dryst", "ns", "s", 2, 1));
    assertThat(http.delete("/v1/tenants/dryst/namespaces/ns?dryRun=All").status())
        .as("a namespace with streams cannot be deleted, dry run or not")
        .isEqualTo(409);
    var deleted = http.delete("/v1/tenants/dryst/namespaces/ns/streams/s?dryRun=All");
    assertThat(deleted.status()).isEqualTo(200);
    assertThat(deleted.json().path("status").path("state").asText()).isEqualTo("deleting");
    assertThat(http.get("/v1/tenants/dryst/namespaces/ns/streams/s").status()).isEqualTo(200);
    assertThat(http.get("/v1/tenants/dryst/namespaces/ns/streams/s/placement").status())
        .isEqualTo(200);
  }

  @Test
  void aBrokerStatusDryRunAndAStaleExpectedVersionChangeNothing() {
    var admin = AdminServiceGrpc.newBlockingStub(operator.channel());
    long version = http.get("/v1/brokers/dry-a").version();
    var planned =
        admin.setBrokerStatus(
            SetBrokerStatusRequest.newBuilder()
                .setBrokerId("dry-a")
                .setStatus(BrokerStatus.BROKER_STATUS_DRAINING)
                .setDryRun(true)
                .build());
    assertThat(planned.getBroker().getStatus()).isEqualTo(BrokerStatus.BROKER_STATUS_DRAINING);
    assertThat(http.get("/v1/brokers/dry-a").json().path("spec").path("status").asText())
        .isEqualTo("active");
    assertThatThrownBy(
            () ->
                admin.setBrokerStatus(
                    SetBrokerStatusRequest.newBuilder()
                        .setBrokerId("dry-a")
                        .setStatus(BrokerStatus.BROKER_STATUS_DRAINING)
                        .setExpectedVersion(version - 1)
                        .build()))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION));
    assertThat(http.get("/v1/brokers/dry-a").version()).isEqualTo(version);
  }

  @Test
  void eachNodeDescribesItselfToPlatformCredentialsOnly() throws Exception {
    var node = http.get("/v1/cluster/node");
    assertThat(node.status()).as(node.body()).isEqualTo(200);
    assertThat(node.json().path("role").asText()).isEqualTo("leader");
    assertThat(node.json().path("node_id").asText()).isEqualTo(node.json().path("leader").asText());
    assertThat(node.json().path("term").asLong()).isPositive();
    assertThat(node.json().path("committed_version").asLong())
        .isGreaterThanOrEqualTo(node.json().path("metadata_version").asLong());
    assertThat(new Http(SharedServer.httpPort(), null).get("/v1/cluster/node").status())
        .isEqualTo(401);
  }
}
