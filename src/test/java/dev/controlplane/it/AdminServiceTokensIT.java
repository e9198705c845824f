package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.controlplane.it.support.Auth;
import dev.controlplane.it.support.Grpc;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.OidcProvider;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.TestDatabase;
import dev.controlplane.proto.v1.AdminServiceGrpc;
import dev.controlplane.proto.v1.BrokerStatus;
import dev.controlplane.proto.v1.CreateStreamRequest;
import dev.controlplane.proto.v1.ListStreamsRequest;
import dev.controlplane.proto.v1.RebalanceShardsRequest;
import dev.controlplane.proto.v1.RegisterBrokerRequest;
import dev.controlplane.proto.v1.RemoveBrokerRequest;
import dev.controlplane.proto.v1.SetBrokerStatusRequest;
import dev.controlplane.proto.v1.StreamSpec;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * AdminService with service tokens from a real token exchange: stream.manage, inheritance, scope.
 */
class AdminServiceTokensIT {

  private static String alice;
  private static String bob;

  @BeforeAll
  static void setUp() throws Exception {
    SharedServer.ensureStarted();
    Auth.bootstrap("svc", "idp-svc", null, "alice");
    alice = Auth.serviceToken("svc", OidcProvider.token("idp-svc", "alice", Map.of()), "{}");
    Http asAlice = new Http(SharedServer.httpPort(), alice);
    assertThat(
            asAlice
                .put("/v1/tenants/svc/namespaces/orders", Http.namespace("svc", "orders", ""))
                .status())
        .isEqualTo(201);
    assertThat(
            asAlice
                .put("/v1/tenants/svc/namespaces/other", Http.namespace("svc", "other", ""))
                .status())
        .isEqualTo(201);
    assertThat(
            Auth.post(
                    alice,
                    "/v1/tenants/svc/rbac/policies",
                    json(
                        "subject",
                        "role:orders-admin",
                        "object",
                        "stream:svc/orders/*",
                        "action",
                        "stream.manage"))
                .status())
        .isEqualTo(201);
    String bobId = Auth.principal(OidcProvider.issuer("idp-svc"), "bob");
    assertThat(
            Auth.post(
                    alice,
                    "/v1/tenants/svc/rbac/groupings",
                    json("principal", bobId, "role", "role:orders-admin"))
                .status())
        .isEqualTo(201);
    bob = Auth.serviceToken("svc", OidcProvider.token("idp-svc", "bob", Map.of()), "{}");
  }

  private static ObjectNode json(String... pairs) {
    ObjectNode node = Http.JSON.createObjectNode();
    for (int i = 0; i < pairs.length; i += 2) {
      node.put(pairs[i], pairs[i + 1]);
    }
    return node;
  }

  private static AdminServiceGrpc.AdminServiceBlockingStub as(String token) {
    return AdminServiceGrpc.newBlockingStub(new Grpc(SharedServer.grpcPort(), token).channel());
  }

  private static CreateStreamRequest create(String ns, String name) {
    return CreateStreamRequest.newBuilder()
        .setTenantId("svc")
        .setNamespace(ns)
        .setStream(name)
        .setSpec(StreamSpec.newBuilder().setShards(1).setReplicationFactor(1))
        .build();
  }

  private static Status.Code codeOf(Runnable call) {
    try {
      call.run();
      return Status.Code.OK;
    } catch (StatusRuntimeException e) {
      return e.getStatus().getCode();
    }
  }

  @AfterAll
  static void brokerMarkedDown() throws Exception {
    TestDatabase.awaitBrokersDown(List.of("svc-broker"));
  }

  private static void freshBroker() {
    try (Grpc grpc = Grpc.shared()) {
      grpc.brokers()
          .registerBroker(
              RegisterBrokerRequest.newBuilder()
                  .setBrokerId("svc-broker")
                  .setAddress("127.0.0.1:7001")
                  .build());
    }
  }

  @Test
  void aStreamManagerActsOnlyInsideTheNamespaceOfTheGrant() {
    freshBroker();
    assertThat(codeOf(() -> as(bob).createStream(create("orders", "s1"))))
        .isEqualTo(Status.Code.OK);
    assertThat(codeOf(() -> as(bob).createStream(create("other", "s1"))))
        .isEqualTo(Status.Code.PERMISSION_DENIED);
    assertThat(
            as(bob)
                .listStreams(
                    ListStreamsRequest.newBuilder()
                        .setTenantId("svc")
                        .setNamespace("orders")
                        .build())
                .getStreamsCount())
        .isEqualTo(1);
    assertThat(
            codeOf(
                () ->
                    as(bob)
                        .listStreams(
                            ListStreamsRequest.newBuilder()
                                .setTenantId("svc")
                                .setNamespace("other")
                                .build())))
        .isEqualTo(Status.Code.PERMISSION_DENIED);
    assertThat(
            codeOf(
                () ->
                    as(bob)
                        .rebalanceShards(
                            RebalanceShardsRequest.newBuilder()
                                .setTenantId("svc")
                                .setDryRun(true)
                                .build())))
        .as("a tenant-wide rebalance needs tenant.manage")
        .isEqualTo(Status.Code.PERMISSION_DENIED);
    assertThat(
            codeOf(
                () ->
                    as(bob)
                        .rebalanceShards(
                            RebalanceShardsRequest.newBuilder()
                                .setTenantId("svc")
                                .setNamespace("orders")
                                .setDryRun(true)
                                .build())))
        .isEqualTo(Status.Code.OK);
  }

  @Test
  void aTenantAdminInheritsStreamManageButNotClusterOperations() {
    freshBroker();
    assertThat(codeOf(() -> as(alice).createStream(create("other", "by-admin"))))
        .isEqualTo(Status.Code.OK);
    assertThat(
            codeOf(
                () ->
                    as(alice)
                        .rebalanceShards(
                            RebalanceShardsRequest.newBuilder()
                                .setTenantId("svc")
                                .setDryRun(true)
                                .build())))
        .isEqualTo(Status.Code.OK);
    assertThat(
            codeOf(
                () ->
                    as(alice)
                        .rebalanceShards(
                            RebalanceShardsRequest.newBuilder().setDryRun(true).build())))
        .as("cluster-wide rebalancing belongs to the platform operator")
        .isEqualTo(Status.Code.PERMISSION_DENIED);
    assertThat(
            codeOf(
                () ->
                    as(alice)
                        .setBrokerStatus(
                            SetBrokerStatusRequest.newBuilder()
                                .setBrokerId("svc-broker")
                                .setStatus(BrokerStatus.BROKER_STATUS_DRAINING)
                                .build())))
        .isEqualTo(Status.Code.PERMISSION_DENIED);
  }

  @Test
  void missingForgedOrForeignTokensAreUnauthenticated() {
    assertThat(
            codeOf(
                () ->
                    AdminServiceGrpc.newBlockingStub(
                            new Grpc(SharedServer.grpcPort(), null).channel())
                        .createStream(create("orders", "x"))))
        .isEqualTo(Status.Code.UNAUTHENTICATED);
    assertThat(codeOf(() -> as("not.a.jwt").createStream(create("orders", "x"))))
        .isEqualTo(Status.Code.UNAUTHENTICATED);
    String upstream = OidcProvider.token("idp-svc", "alice", Map.of());
    assertThat(codeOf(() -> as(upstream).createStream(create("orders", "x"))))
        .as("an upstream token is not a service token")
        .isEqualTo(Status.Code.UNAUTHENTICATED);
    Auth.bootstrap("svc-other", "idp-svc-other", null, "alice");
    String foreign =
        Auth.serviceToken(
            "svc-other", OidcProvider.token("idp-svc-other", "alice", Map.of()), "{}");
    assertThat(codeOf(() -> as(foreign).createStream(create("orders", "x"))))
        .as("tid must be the request's tenant")
        .isEqualTo(Status.Code.UNAUTHENTICATED);
    // Operator-only RPCs answered PERMISSION_DENIED to any credential that was not the operator's,
    // a forged one included: "ask for a permission" where the token itself must be fixed.
    var drain =
        SetBrokerStatusRequest.newBuilder()
            .setBrokerId("svc-broker")
            .setStatus(BrokerStatus.BROKER_STATUS_DRAINING)
            .build();
    assertThat(codeOf(() -> as("not.a.jwt").setBrokerStatus(drain)))
        .isEqualTo(Status.Code.UNAUTHENTICATED);
    assertThat(
            codeOf(
                () ->
                    as(upstream)
                        .removeBroker(
                            RemoveBrokerRequest.newBuilder().setBrokerId("svc-broker").build())))
        .isEqualTo(Status.Code.UNAUTHENTICATED);
    assertThat(
            codeOf(
                () ->
                    as("garbage")
                        .rebalanceShards(
                            RebalanceShardsRequest.newBuilder().setDryRun(true).build())))
        .isEqualTo(Status.Code.UNAUTHENTICATED);
  }

  /** A malformed tenant name is the request's mistake, not a tenant that does not exist. */
  @Test
  void aNamespaceRebalanceWithAMalformedTenantNameIsInvalid() {
    assertThat(
            codeOf(
                () ->
                    as(alice)
                        .rebalanceShards(
                            RebalanceShardsRequest.newBuilder()
                                .setTenantId("BAD")
                                .setNamespace("orders")
                                .setDryRun(true)
                                .build())))
        .isEqualTo(Status.Code.INVALID_ARGUMENT);
  }
}
