package dev.controlplane.it;

import static dev.controlplane.it.EscalationIT.adminToken;
import static dev.controlplane.it.EscalationIT.assign;
import static dev.controlplane.it.EscalationIT.grant;
import static dev.controlplane.it.support.Auth.perms;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.sun.net.httpserver.HttpServer;
import dev.controlplane.it.support.Auth;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.OidcProvider;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.TestDatabase;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Trust boundaries at the edges: issuer URLs that would reach internal networks, one answer for
 * every refused upstream token, group names as identity providers send them, hints that narrow, and
 * writes for tenants that do not exist (issue 14 items 8, 11, 14; issue 9 items 1, 2, 4).
 */
class TrustBoundaryIT {

  static final String REFUSED = "the token is not valid for this tenant";

  @BeforeAll
  static void server() throws Exception {
    SharedServer.ensureStarted();
  }

  private static ObjectNode issuerAt(String issuer, String field, String url) {
    ObjectNode record = Http.JSON.createObjectNode().put("issuer", issuer).put(field, url);
    record.putArray("audiences").add(OidcProvider.AUDIENCE);
    return record;
  }

  /** 14.8: loopback (beyond the test IdP's one address), private, CGNAT and ULA targets. */
  @Test
  void issuerUrlsThatPointIntoInternalNetworksAreRefused() {
    Auth.bootstrap("tb-ssrf", "tb-ssrf-idp", null, "alice");
    String admin = adminToken("tb-ssrf", "tb-ssrf-idp");
    List<String> internal =
        List.of(
            "http://127.0.0.2:8080/jwks",
            "http://10.0.0.1/jwks",
            "http://172.16.5.4/jwks",
            "http://192.168.1.1/jwks",
            "http://100.64.0.1/jwks",
            "http://[fd00::1]/jwks",
            "http://[::1]/jwks",
            "http://169.254.169.254/latest/meta-data/");
    for (String url : internal) {
      for (String field : List.of("jwks_url", "discovery_url")) {
        var reply =
            Auth.post(
                admin,
                "/v1/tenants/tb-ssrf/idp-issuers",
                issuerAt("https://idp.example/" + field, field, url));
        assertThat(reply.status()).as(url + ": " + reply.body()).isEqualTo(400);
        assertThat(reply.body()).contains(field).contains("must not point to");
      }
    }
    var bootstrap =
        Auth.bootstrap(
            "tb-ssrf2",
            List.of(issuerAt("https://idp.example/x", "jwks_url", "http://10.1.2.3/jwks")),
            List.of("a".repeat(64)),
            SharedServer.BOOTSTRAP_TOKEN);
    assertThat(bootstrap.status()).as(bootstrap.body()).isEqualTo(400);
  }

  /**
   * 14.8 and 14.11: whatever the reason — an internal address found only at fetch time, a key
   * server that is closed, answers 406 or sends no key set, an untrusted issuer, a bad signature,
   * an unknown tenant — the 401 says the same; the reason is only in the log.
   */
  @Test
  void everyRefusedUpstreamTokenGetsTheSameAnswer() throws Exception {
    Auth.bootstrap("tb-uniform", "tb-uniform-idp", null, "alice");
    HttpServer odd = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
    odd.createContext(
        "/406",
        e -> {
          e.sendResponseHeaders(406, -1);
          e.close();
        });
    byte[] notJwks = "{\"hello\":\"world\"}".getBytes(StandardCharsets.UTF_8);
    odd.createContext(
        "/nokeys",
        e -> {
          e.sendResponseHeaders(200, notJwks.length);
          e.getResponseBody().write(notJwks);
          e.close();
        });
    odd.start();
    try {
      String base = "http://127.0.0.1:" + odd.getAddress().getPort();
      Map<String, String> keyUrls = new LinkedHashMap<>();
      keyUrls.put("http://tb-uniform.example/private", "http://10.255.255.1:9/jwks");
      keyUrls.put("http://tb-uniform.example/closed", "http://127.0.0.1:1/jwks");
      keyUrls.put("http://tb-uniform.example/406", base + "/406");
      keyUrls.put("http://tb-uniform.example/nokeys", base + "/nokeys");
      ECKey key = new ECKeyGenerator(Curve.P_256).keyID("k").generate();
      Map<String, String> tokens = new LinkedHashMap<>();
      for (var entry : keyUrls.entrySet()) {
        // Written around the API's checks, as a row from before them would be.
        insertIssuer("tb-uniform", entry.getKey(), entry.getValue());
        tokens.put(entry.getKey(), signed(key, entry.getKey()));
      }
      tokens.put("untrusted issuer", signed(key, "http://tb-uniform.example/unknown"));
      tokens.put(
          "attacker key under the issuer's kid",
          OidcProvider.sign(
              new ECKeyGenerator(Curve.P_256)
                  .keyID(OidcProvider.key("tb-uniform-idp").getKeyID())
                  .generate(),
              OidcProvider.es256("tb-uniform-idp"),
              OidcProvider.claims("tb-uniform-idp", "alice").build()));
      Set<String> details = new TreeSet<>();
      for (var entry : tokens.entrySet()) {
        var reply = Auth.exchange("tb-uniform", entry.getValue(), "{}");
        assertThat(reply.status()).as(entry.getKey()).isEqualTo(401);
        details.add(reply.json().path("detail").asText());
      }
      var unknownTenant =
          Auth.exchange(
              "tb-no-such-tenant", OidcProvider.token("tb-uniform-idp", "alice", Map.of()), "{}");
      details.add(unknownTenant.json().path("detail").asText());
      assertThat(details).containsExactly(REFUSED);
      String log = SharedServer.process().logText();
      assertThat(log)
          .contains("10.255.255.1, a loopback, private, shared (CGNAT) or unique-local address")
          .contains("the issuer could not be reached")
          .contains("the issuer answered 406")
          .contains("the issuer's key set is not a JWK set");
    } finally {
      odd.stop(0);
    }
  }

  private static String signed(ECKey key, String issuer) {
    return OidcProvider.sign(
        key,
        new JWSHeader.Builder(JWSAlgorithm.ES256).keyID("k"),
        OidcProvider.claims("tb-uniform-idp", "alice").issuer(issuer).build());
  }

  private static void insertIssuer(String tenant, String issuer, String jwksUrl) throws Exception {
    try (var db = TestDatabase.connect();
        var insert =
            db.prepareStatement(
                "INSERT INTO idp_issuers (tenant, issuer, audiences, jwks_url) VALUES (?, ?, '{"
                    + OidcProvider.AUDIENCE
                    + "}', ?)")) {
      insert.setString(1, tenant);
      insert.setString(2, issuer);
      insert.setString(3, jwksUrl);
      insert.executeUpdate();
    }
  }

  /** 14.14 and 9.4: the operator's writes for a tenant that does not exist, or a bad name. */
  @Test
  void operatorWritesForAMissingTenantAre404AndForABadNameAre400() {
    Http operator = Http.shared();
    ObjectNode issuer = Auth.issuerRecord("tb-missing-idp", null);
    ObjectNode policy =
        EscalationIT.json(
            "subject", "role:r", "object", "tenant:tb-missing", "action", "rbac.view");
    ObjectNode grouping = EscalationIT.json("principal", "a".repeat(64), "role", "role:r");
    String[][] writes = {
      {"/idp-issuers", issuer.toString()},
      {"/rbac/policies", policy.toString()},
      {"/rbac/groupings", grouping.toString()}
    };
    for (String[] write : writes) {
      var missing = post(operator, "/v1/tenants/tb-missing" + write[0], write[1]);
      assertThat(missing.status()).as(write[0] + ": " + missing.body()).isEqualTo(404);
      assertThat(missing.json().path("code").asText()).isEqualTo("not_found");
      var badName =
          post(
              operator,
              "/v1/tenants/Bad_Name" + write[0],
              write[1].replace("tb-missing", "Bad_Name"));
      assertThat(badName.status()).as(write[0] + ": " + badName.body()).isEqualTo(400);
    }
    assertThat(operator.delete("/v1/tenants/tb-missing/idp-issuers/https%3A%2F%2Fx").status())
        .isEqualTo(404);
  }

  private static Http.Reply post(Http http, String path, String body) {
    return http.send(
        http.request(path)
            .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body))
            .header("Content-Type", "application/json"));
  }

  /** 9.1: Keycloak paths, Azure AD object ids and names with spaces are groups like any other. */
  @Test
  void groupNamesAsIdentityProvidersSendThemAreGrantedAndCarriedIntoPerms() {
    var bootstrapped =
        Auth.bootstrap(
            "tb-groups",
            List.of(Auth.issuerRecord("tb-groups-idp", "groups")),
            List.of("group:/org/admins"),
            SharedServer.BOOTSTRAP_TOKEN);
    assertThat(bootstrapped.status()).as(bootstrapped.body()).isEqualTo(201);
    var keycloakAdmin =
        Auth.exchange(
            "tb-groups",
            OidcProvider.token("tb-groups-idp", "kc", Map.of("groups", List.of("/org/admins"))),
            "{}");
    assertThat(perms(keycloakAdmin)).contains("tenant.manage:tenant:tb-groups");
    String admin = keycloakAdmin.json().path("service_token").asText();
    String guid = "6f1c2b8e-3d4a-4e5f-9a0b-1c2d3e4f5a6b";
    grant(admin, "tb-groups", "role:readers", "stream:tb-groups/ns/*", "stream.subscribe");
    grant(admin, "tb-groups", "role:writers", "stream:tb-groups/ns/*", "stream.publish");
    assertThat(assign(admin, "tb-groups", "group:" + guid, "role:readers").status()).isEqualTo(201);
    assertThat(assign(admin, "tb-groups", "group:Ops Team", "role:writers").status())
        .isEqualTo(201);
    var azure =
        Auth.exchange(
            "tb-groups",
            OidcProvider.token("tb-groups-idp", "az", Map.of("groups", List.of(guid))),
            "{}");
    assertThat(perms(azure)).containsExactly("stream.subscribe:stream:tb-groups/ns/*");
    var ops =
        Auth.exchange(
            "tb-groups",
            OidcProvider.token(
                "tb-groups-idp", "ops", Map.of("groups", List.of("Ops Team", "group:" + guid))),
            "{}");
    assertThat(perms(ops))
        .containsExactlyInAnyOrder(
            "stream.publish:stream:tb-groups/ns/*", "stream.subscribe:stream:tb-groups/ns/*");
    var control = assign(admin, "tb-groups", "group:bad\u0007name", "role:readers");
    assertThat(control.status()).isEqualTo(400);
    assertThat(control.body()).contains("control characters");
    assertThat(assign(admin, "tb-groups", "group:" + "x".repeat(400), "role:readers").status())
        .isEqualTo(400);
  }

  /** 9.2: hints yield exactly the covered, narrower permissions, never more than requested. */
  @Test
  void hintsNarrowInheritedGrantsToWhatTheyName() {
    Auth.bootstrap("tb-hints", "tb-hints-idp", null, "alice");
    String admin = adminToken("tb-hints", "tb-hints-idp");
    String upstream = OidcProvider.token("tb-hints-idp", "alice", Map.of());
    var wildcard =
        Auth.exchange("tb-hints", upstream, "{\"resources\":[\"stream:tb-hints/orders/*\"]}");
    assertThat(wildcard.status()).as(wildcard.body()).isEqualTo(200);
    assertThat(perms(wildcard))
        .containsExactlyInAnyOrder(
            "stream.manage:stream:tb-hints/orders/*",
            "stream.publish:stream:tb-hints/orders/*",
            "stream.subscribe:stream:tb-hints/orders/*");
    var publishOnly = Auth.exchange("tb-hints", upstream, "{\"requested\":[\"stream.publish\"]}");
    assertThat(publishOnly.status()).as("never the whole tenant.manage grant").isEqualTo(403);
    assertThat(publishOnly.json().path("detail").asText()).contains("resources");

    String nsManager = Auth.principal(OidcProvider.issuer("tb-hints-idp"), "ned");
    grant(admin, "tb-hints", "role:orders-admin", "namespace:tb-hints/orders", "ns.manage");
    assign(admin, "tb-hints", nsManager, "role:orders-admin");
    String ned = OidcProvider.token("tb-hints-idp", "ned", Map.of());
    var oneStream =
        Auth.exchange("tb-hints", ned, "{\"resources\":[\"stream:tb-hints/orders/x\"]}");
    assertThat(perms(oneStream))
        .containsExactlyInAnyOrder(
            "stream.manage:stream:tb-hints/orders/x",
            "stream.publish:stream:tb-hints/orders/x",
            "stream.subscribe:stream:tb-hints/orders/x");
    var nedPublish = Auth.exchange("tb-hints", ned, "{\"requested\":[\"stream.publish\"]}");
    assertThat(perms(nedPublish)).containsExactly("stream.publish:stream:tb-hints/orders/*");
  }
}
