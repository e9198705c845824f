package dev.controlplane.it;

import static dev.controlplane.it.support.Auth.perms;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.nimbusds.jwt.SignedJWT;
import dev.controlplane.it.support.Auth;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.IsolatedServer;
import dev.controlplane.it.support.Keycloak;
import dev.controlplane.it.support.SharedServer;
import java.net.http.HttpRequest;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The token exchange against Keycloak itself rather than a test provider: its discovery document,
 * its key set (RSA and EC signing keys, an RSA encryption key, certificate chains), its tokens as
 * it shapes them (full group paths, names with spaces, no audience unless mapped, UUID subjects,
 * service accounts), signed with its default RS256 or with ES256, and a key it rotates while the
 * node runs. The realm is src/test/resources/keycloak/acme-realm.json.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KeycloakIT {

  private static final String TENANT = "kc-acme";
  private static final String REALM = "acme";
  private static final String AUDIENCE = "controlplane";

  /** The node fetches an issuer's keys at most this often (unknown kid included). */
  private static final long REFRESH_MILLIS = 1_000;

  private static Keycloak keycloak;
  private static IsolatedServer node;

  @BeforeAll
  static void start() throws Exception {
    // Keycloak's first start builds its server (about half a minute): start both at once.
    CompletableFuture<Keycloak> idp =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return Keycloak.start("/keycloak/acme-realm.json");
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    try {
      // Keycloak signs with RS256 unless a client asks for another algorithm.
      node =
          IsolatedServer.start(
              "keycloak",
              "keycloak",
              Map.of(
                  "SERVICE_CONTROLPLANE_OIDC_ALLOWED_ALGORITHMS",
                  "ES256,RS256",
                  "SERVICE_CONTROLPLANE_OIDC_JWKS_REFRESH_INTERVAL",
                  REFRESH_MILLIS + "ms"));
    } finally {
      keycloak = idp.join();
    }
    ObjectNode issuer = Http.JSON.createObjectNode();
    issuer.put("issuer", keycloak.issuer(REALM));
    issuer.putArray("audiences").add(AUDIENCE);
    issuer.put("discovery_url", keycloak.discoveryUrl(REALM));
    issuer.putObject("claim_mappings").put("groups_claim", "groups");
    var reply =
        Auth.bootstrap(
            node.bootstrapPort(),
            TENANT,
            List.of(issuer),
            List.of("group:/org/admins"),
            SharedServer.BOOTSTRAP_TOKEN);
    assertThat(reply.status()).as(reply.body()).isEqualTo(201);
  }

  @AfterAll
  static void stop() {
    if (node != null) {
      node.close();
    }
    if (keycloak != null) {
      keycloak.close();
    }
  }

  private static String alice(String client) {
    return keycloak.passwordToken(REALM, client, client + "-secret", "alice", "alice-pw");
  }

  private static Http.Reply exchange(String upstream) {
    return Auth.exchange(node.httpPort(), TENANT, upstream, "{}");
  }

  private static String adminToken() {
    var reply = exchange(alice("cp-es256"));
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    return reply.json().path("service_token").asText();
  }

  private static Http.Reply post(String token, String path, String body) {
    Http http = new Http(node.httpPort(), token);
    return http.send(
        http.request(path)
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .header("Content-Type", "application/json"));
  }

  private static String claim(String jwt, String name) throws Exception {
    return SignedJWT.parse(jwt).getJWTClaimsSet().getStringClaim(name);
  }

  private static String algorithm(String jwt) throws Exception {
    return SignedJWT.parse(jwt).getHeader().getAlgorithm().getName();
  }

  private static String kid(String jwt) throws Exception {
    return SignedJWT.parse(jwt).getHeader().getKeyID();
  }

  @Test
  @Order(1)
  void aMemberOfTheAdminGroupByItsFullPathIsTheTenantsAdminWithEitherAlgorithm() throws Exception {
    for (String client : List.of("cp-es256", "cp-rs256")) {
      String upstream = alice(client);
      assertThat(algorithm(upstream)).isEqualTo(client.equals("cp-es256") ? "ES256" : "RS256");
      var reply = exchange(upstream);
      assertThat(reply.status()).as(client + ": " + reply.body()).isEqualTo(200);
      assertThat(perms(reply)).contains("tenant.manage:tenant:" + TENANT);
      // Keycloak's subjects are user UUIDs; the principal id hashes the issuer with it.
      String service = reply.json().path("service_token").asText();
      assertThat(claim(service, "sub"))
          .isEqualTo(Auth.principal(keycloak.issuer(REALM), claim(upstream, "sub")));
    }
  }

  @Test
  @Order(2)
  void aGroupWhoseNameHasASpaceGetsExactlyWhatItWasGranted() throws Exception {
    String admin = adminToken();
    var policy =
        post(
            admin,
            "/v1/tenants/" + TENANT + "/rbac/policies",
            "{\"subject\": \"role:ops\", \"object\": \"stream:"
                + TENANT
                + "/orders/*\", \"action\": \"stream.publish\"}");
    assertThat(policy.status()).as(policy.body()).isEqualTo(201);
    var grouping =
        post(
            admin,
            "/v1/tenants/" + TENANT + "/rbac/groupings",
            "{\"principal\": \"group:/org/Ops Team\", \"role\": \"role:ops\"}");
    assertThat(grouping.status()).as(grouping.body()).isEqualTo(201);
    assertThat(grouping.json().path("issuer").asText()).isEqualTo(keycloak.issuer(REALM));

    String bob = keycloak.passwordToken(REALM, "cp-es256", "cp-es256-secret", "bob", "bob-pw");
    var reply = exchange(bob);
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    assertThat(perms(reply)).containsExactly("stream.publish:stream:" + TENANT + "/orders/*");
  }

  @Test
  @Order(3)
  void aUserWithNoGrantIsForbiddenAndATokenWithoutTheAudienceIsRefused() {
    String carol =
        keycloak.passwordToken(REALM, "cp-es256", "cp-es256-secret", "carol", "carol-pw");
    var forbidden = exchange(carol);
    assertThat(forbidden.status()).as(forbidden.body()).isEqualTo(403);

    // Keycloak puts no audience in a client's tokens unless an audience mapper adds one.
    var refused = exchange(alice("other-app"));
    assertThat(refused.status()).as(refused.body()).isEqualTo(401);
    assertThat(refused.json().path("detail").asText()).isEqualTo(TrustBoundaryIT.REFUSED);
  }

  @Test
  @Order(4)
  void aServiceAccountIsAPrincipalLikeAUser() throws Exception {
    String machine = keycloak.clientToken(REALM, "cp-es256", "cp-es256-secret");
    assertThat(exchange(machine).status()).isEqualTo(403);

    String principal = Auth.principal(keycloak.issuer(REALM), claim(machine, "sub"));
    var grouping =
        post(
            adminToken(),
            "/v1/tenants/" + TENANT + "/rbac/groupings",
            "{\"principal\": \"" + principal + "\", \"role\": \"role:ops\"}");
    assertThat(grouping.status()).as(grouping.body()).isEqualTo(201);
    var reply = exchange(machine);
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    assertThat(perms(reply)).containsExactly("stream.publish:stream:" + TENANT + "/orders/*");
  }

  @Test
  @Order(5)
  void aKeyKeycloakRotatesToSignsTokensTheNodeAcceptsWithoutARestart() throws Exception {
    String before = alice("cp-es256");
    assertThat(exchange(before).status()).isEqualTo(200);

    keycloak.addSigningKey(REALM, "ecdsa-rotated", 200);
    String after = alice("cp-es256");
    assertThat(kid(after)).isNotEqualTo(kid(before));
    // The node may fetch the issuer's keys again once the refresh interval has passed since its
    // last fetch, which was at most the exchange above.
    Thread.sleep(REFRESH_MILLIS + 500);
    var rotated = exchange(after);
    assertThat(rotated.status()).as(rotated.body()).isEqualTo(200);
    assertThat(perms(rotated)).contains("tenant.manage:tenant:" + TENANT);
    // Keycloak still publishes the key it signed with before: tokens it issued stay good.
    assertThat(exchange(before).status()).isEqualTo(200);
  }
}
