package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.controlplane.client.ApiClient;
import dev.controlplane.client.ApiException;
import dev.controlplane.client.api.AuthApi;
import dev.controlplane.client.api.RbacApi;
import dev.controlplane.client.model.ExchangeRequest;
import dev.controlplane.client.model.ExchangeResponse;
import dev.controlplane.client.model.Policy;
import dev.controlplane.it.support.Auth;
import dev.controlplane.it.support.OidcProvider;
import dev.controlplane.it.support.SharedServer;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A Java client generated from openapi/controlplane.yaml (openapi-generator) talks to the real
 * server.
 */
class GeneratedClientIT {

  @BeforeAll
  static void server() throws Exception {
    SharedServer.ensureStarted();
  }

  private static ApiClient client(String bearer) {
    ApiClient client = new ApiClient();
    client.updateBaseUri("http://127.0.0.1:" + SharedServer.httpPort());
    client.setRequestInterceptor(request -> request.header("Authorization", "Bearer " + bearer));
    return client;
  }

  @Test
  void theGeneratedClientExchangesATokenAndAdministersRbac() throws Exception {
    Auth.bootstrap("genclient", "idp-genclient", null, "alice");
    String upstream = OidcProvider.token("idp-genclient", "alice", Map.of());
    ExchangeResponse exchanged =
        new AuthApi(client(upstream)).exchangeToken("genclient", new ExchangeRequest());
    assertThat(exchanged.getTokenType().getValue()).isEqualTo("Bearer");
    assertThat(exchanged.getExpiresIn()).isPositive();

    RbacApi rbac = new RbacApi(client(exchanged.getServiceToken()));
    Policy added =
        rbac.addPolicy(
            "genclient",
            new Policy()
                .subject("role:reader")
                ._object("stream:genclient/ns/*")
                .action("stream.subscribe"));
    assertThat(added.getObject()).isEqualTo("stream:genclient/ns/*");
    assertThat(rbac.listPolicies("genclient").getPolicies())
        .extracting(Policy::getSubject)
        .contains("role:reader", "role:tenant-admin");
    rbac.removePolicy(
        "genclient", "role:reader", "stream:genclient/ns/*", "stream.subscribe", null);
    assertThat(rbac.listPolicies("genclient").getPolicies())
        .extracting(Policy::getSubject)
        .doesNotContain("role:reader");

    assertThatThrownBy(
            () ->
                new AuthApi(client("not-a-token"))
                    .exchangeToken("genclient", new ExchangeRequest()))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(401));
  }
}
