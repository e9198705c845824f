package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.controlplane.it.support.Grpc;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.IsolatedServer;
import dev.controlplane.it.support.Metrics;
import dev.controlplane.it.support.Snapshots;
import dev.controlplane.proto.v1.AdminServiceGrpc;
import dev.controlplane.proto.v1.ListStreamsRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Replacing the shared credentials without an outage (docs/operations.md, "Replacing the shared
 * credentials"): a node with a new broker token and a new operator token still accepts the old ones
 * as fallbacks, over gRPC and HTTP alike, and counts each use of one, so the operator can tell when
 * every client has moved and the fallbacks can go. Anything else is still refused.
 */
class SharedCredentialRotationIT {

  static final String BROKER_NEW = "broker-token-2026-12";
  static final String BROKER_OLD = "broker-token-2026-06";
  static final String OPERATOR_NEW = "operator-token-2026-12";
  static final String OPERATOR_OLD = "operator-token-2026-06";

  @Test
  void oldTokensWorkAsFallbacksAndEachUseIsCountedUntilTheyGo() throws Exception {
    try (IsolatedServer node =
        IsolatedServer.start(
            "credential-rotation",
            Map.of(
                "SERVICE_CONTROLPLANE_BROKER_TOKEN", BROKER_NEW,
                "SERVICE_CONTROLPLANE_BROKER_TOKEN_FALLBACKS", "unused-one, " + BROKER_OLD,
                "SERVICE_CONTROLPLANE_OPERATOR_TOKEN", OPERATOR_NEW,
                "SERVICE_CONTROLPLANE_OPERATOR_TOKEN_FALLBACKS", OPERATOR_OLD))) {
      assertThat(fallbackUses(node, "broker")).isZero();
      assertThat(fallbackUses(node, "operator")).isZero();

      // Brokers on either token, over gRPC and on the HTTP metadata reads.
      for (String token : new String[] {BROKER_NEW, BROKER_OLD}) {
        try (Grpc grpc = new Grpc(node.grpcPort(), token)) {
          assertThat(Snapshots.take(grpc, 0).version()).isNotNegative();
        }
        assertThat(new Http(node.httpPort(), token).get("/v1/tenants").status()).isEqualTo(200);
      }
      assertThat(fallbackUses(node, "broker")).isEqualTo(2);
      try (Grpc grpc = new Grpc(node.grpcPort(), "broker-token-guessed")) {
        assertThatThrownBy(() -> Snapshots.take(grpc, 0))
            .isInstanceOfSatisfying(
                StatusRuntimeException.class,
                e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED));
      }
      assertThat(new Http(node.httpPort(), OPERATOR_OLD + "x").get("/v1/tenants").status())
          .isEqualTo(401);

      // The operator on either token: an HTTP write and a gRPC admin call.
      assertThat(
              new Http(node.httpPort(), OPERATOR_OLD)
                  .put("/v1/tenants/acme", Http.tenant("acme", ""))
                  .status())
          .isEqualTo(201);
      assertThat(
              new Http(node.httpPort(), OPERATOR_NEW)
                  .put("/v1/tenants/acme/namespaces/ns", Http.namespace("acme", "ns", ""))
                  .status())
          .isEqualTo(201);
      for (String token : new String[] {OPERATOR_OLD, OPERATOR_NEW}) {
        try (Grpc grpc = new Grpc(node.grpcPort(), token)) {
          assertThat(
                  AdminServiceGrpc.newBlockingStub(grpc.channel())
                      .listStreams(
                          ListStreamsRequest.newBuilder()
                              .setTenantId("acme")
                              .setNamespace("ns")
                              .build())
                      .getStreamsList())
              .isEmpty();
        }
      }
      assertThat(fallbackUses(node, "operator")).isEqualTo(2);
      // A broker token is not an operator's, old or new.
      assertThat(
              new Http(node.httpPort(), BROKER_OLD)
                  .put("/v1/tenants/evil", Http.tenant("evil", ""))
                  .status())
          .isEqualTo(401);
    }
  }

  private static double fallbackUses(IsolatedServer node, String credential) {
    return Metrics.valueIn(
        Metrics.scrape(node.httpPort()),
        "controlplane_credential_fallback_uses_total",
        "credential=\"" + credential + "\"");
  }
}
