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

  /**
   * The bootstrap listener's own document (openapi/bootstrap.yaml) gives a client of its own,
   * pointed at the bootstrap address.
   */
  private static void bootstrapWithTheGeneratedClient(String tenant, String idp, String admin)
      throws Exception {
    var issuer = Auth.issuerRecord(idp, null); // also makes the provider's keys ready
    var client = new dev.controlplane.bootstrapclient.ApiClient();
    client.updateBaseUri("http://127.0.0.1:" + SharedServer.bootstrapPort());
    client.setRequestInterceptor(
        request -> request.header("X-Service-Bootstrap-Token", SharedServer.BOOTSTRAP_TOKEN));
    var initialized =
        new dev.controlplane.bootstrapclient.api.BootstrapApi(client)
            .initializeTenant(
                tenant,
                new dev.controlplane.bootstrapclient.model.BootstrapRequest()
                    .displayName("generated client")
                    .addIdpIssuersItem(
                        new dev.controlplane.bootstrapclient.model.BootstrapRequestIdpIssuersInner()
                            .issuer(issuer.path("issuer").asText())
                            .addAudiencesItem(OidcProvider.AUDIENCE)
                            .discoveryUrl(issuer.path("discovery_url").asText()))
                    .addInitialAdminPrincipalsItem(
                        Auth.principal(OidcProvider.issuer(idp), admin)));
    assertThat(initialized.getTenantId()).isEqualTo(tenant);
  }

  @Test
  void theGeneratedClientExchangesATokenAndAdministersRbac() throws Exception {
    bootstrapWithTheGeneratedClient("genclient", "idp-genclient", "alice");
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

  @Test
  void theGeneratedClientReadsETagsAndAStaleIfMatchGets412WithoutOverwriting() throws Exception {
    ApiClient operator = client(SharedServer.OPERATOR_TOKEN);
    new dev.controlplane.client.api.TenantsApi(operator)
        .putTenant(
            "genetag",
            new dev.controlplane.client.model.Tenant()
                .apiVersion(dev.controlplane.client.model.ApiVersion.CONTROLPLANE_V1)
                .kind(dev.controlplane.client.model.Tenant.KindEnum.TENANT),
            null,
            null,
            null);
    var namespaces = new dev.controlplane.client.api.NamespacesApi(operator);
    var created =
        namespaces.putNamespaceWithHttpInfo("genetag", "ns", namespace("first"), null, "*", null);
    assertThat(created.getStatusCode()).isEqualTo(201);
    String read = etag(namespaces.getNamespaceWithHttpInfo("genetag", "ns").getHeaders());
    assertThat(read).isEqualTo(etag(created.getHeaders())).matches("\"[0-9]+\"");

    var newer =
        namespaces.putNamespaceWithHttpInfo("genetag", "ns", namespace("newer"), read, null, null);
    assertThat(newer.getStatusCode()).isEqualTo(200);
    assertThatThrownBy(
            () -> namespaces.putNamespace("genetag", "ns", namespace("stale"), read, null, null))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.getCode()).isEqualTo(412);
              assertThat(e.getResponseBody()).contains("precondition_failed");
            });
    assertThat(namespaces.getNamespace("genetag", "ns").getSpec().getDescription())
        .isEqualTo("newer");
    assertThatThrownBy(
            () -> namespaces.putNamespace("genetag", "ns", namespace("again"), null, "*", null))
        .as("If-None-Match: * refuses to replace")
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(412));
  }

  @Test
  void theGeneratedClientWritesReadsListsAndDeletesABridge() throws Exception {
    var bridges = new dev.controlplane.client.api.BridgesApi(client(SharedServer.OPERATOR_TOKEN));
    var wanted =
        new dev.controlplane.client.model.Bridge()
            .apiVersion(dev.controlplane.client.model.ApiVersion.CONTROLPLANE_V1)
            .kind(dev.controlplane.client.model.Bridge.KindEnum.BRIDGE)
            .spec(
                new dev.controlplane.client.model.BridgeSpec()
                    .sourceRegion("eu-west-1")
                    .targetRegion("us-east-1")
                    .encryption(
                        new dev.controlplane.client.model.BridgeEncryption().keyId("kms-1")));
    var created = bridges.putBridgeWithHttpInfo("genbridge", wanted, null, null, null);
    assertThat(created.getStatusCode()).isEqualTo(201);
    assertThat(created.getData().getMetadata().getVersion()).isPositive();
    var read = bridges.getBridge("genbridge");
    assertThat(read.getSpec().getTargetRegion()).isEqualTo("us-east-1");
    assertThat(read.getSpec().getStreams()).isEmpty();
    assertThat(read.getSpec().getEncryption().getKeyId()).isEqualTo("kms-1");
    assertThat(bridges.listBridges(null, null).getItems())
        .extracting(b -> b.getMetadata().getName())
        .contains("genbridge");
    bridges.deleteBridge("genbridge", null, null);
    assertThatThrownBy(() -> bridges.getBridge("genbridge"))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(404));
  }

  private static dev.controlplane.client.model.Namespace namespace(String description) {
    return new dev.controlplane.client.model.Namespace()
        .apiVersion(dev.controlplane.client.model.ApiVersion.CONTROLPLANE_V1)
        .kind(dev.controlplane.client.model.Namespace.KindEnum.NAMESPACE)
        .spec(new dev.controlplane.client.model.NamespaceSpec().description(description));
  }

  private static String etag(Map<String, java.util.List<String>> headers) {
    return headers.entrySet().stream()
        .filter(e -> e.getKey().equalsIgnoreCase("ETag"))
        .flatMap(e -> e.getValue().stream())
        .findFirst()
        .orElseThrow(() -> new AssertionError("no ETag in " + headers));
  }
}
