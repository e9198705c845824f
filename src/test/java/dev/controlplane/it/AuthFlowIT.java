package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.nimbusds.jose.crypto.Ed25519Verifier;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jwt.SignedJWT;
import dev.controlplane.it.support.Auth;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.OidcProvider;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.TestDatabase;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Bootstrap → token exchange → admin with RBAC, against a real OIDC provider over HTTP. */
class AuthFlowIT {

  @BeforeAll
  static void server() throws Exception {
    SharedServer.ensureStarted();
  }

  private static ObjectNode json(String... pairs) {
    ObjectNode node = Http.JSON.createObjectNode();
    for (int i = 0; i < pairs.length; i += 2) {
      node.put(pairs[i], pairs[i + 1]);
    }
    return node;
  }

  private static Http admin(String token) {
    return new Http(SharedServer.httpPort(), token);
  }

  @Test
  void aBootstrappedAdminExchangesATokenAndAdministersTheTenant() throws Exception {
    Auth.bootstrap("flow", "idp-flow", null, "alice");
    var reply = Auth.exchange("flow", OidcProvider.token("idp-flow", "alice", Map.of()), "{}");
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    assertThat(reply.json().path("token_type").asText()).isEqualTo("Bearer");
    assertThat(reply.json().path("expires_in").asLong()).isEqualTo(900);
    SignedJWT token = SignedJWT.parse(reply.json().path("service_token").asText());
    assertThat(token.getHeader().getAlgorithm().getName()).isEqualTo("EdDSA");
    assertThat(token.getHeader().getType().getType()).isEqualTo("JWT");
    var claims = token.getJWTClaimsSet();
    assertThat(claims.getClaims().keySet())
        .containsExactlyInAnyOrder("iss", "aud", "sub", "tid", "exp", "iat", "perms", "jti");
    assertThat(claims.getIssuer()).isEqualTo("service-auth");
    assertThat(claims.getAudience()).containsExactly("service-broker");
    assertThat(claims.getSubject())
        .isEqualTo(Auth.principal(OidcProvider.issuer("idp-flow"), "alice"));
    assertThat(claims.getStringClaim("tid")).isEqualTo("flow");
    assertThat(claims.getStringListClaim("perms"))
        .containsExactlyInAnyOrder(
            "tenant.manage:tenant:flow",
            "rbac.view:tenant:flow",
            "rbac.policy.manage:tenant:flow",
            "rbac.assignment.manage:tenant:flow");

    var jwks =
        new Http(SharedServer.httpPort(), null).get("/v1/tenants/flow/.well-known/jwks.json");
    assertThat(jwks.raw().headers().firstValue("Cache-Control")).hasValue("public, max-age=2");
    OctetKeyPair key =
        (OctetKeyPair) JWKSet.parse(jwks.body()).getKeyByKeyId(token.getHeader().getKeyID());
    assertThat(token.verify(new Ed25519Verifier(key)))
        .as("brokers verify with the published key")
        .isTrue();
    assertThat(jwks.body()).doesNotContain("\"d\"");

    String service = token.serialize();
    var ns =
        admin(service)
            .put("/v1/tenants/flow/namespaces/ns1", Http.namespace("flow", "ns1", "by token"));
    assertThat(ns.status()).as(ns.body()).isEqualTo(201);
    var policy =
        Auth.post(
            service,
            "/v1/tenants/flow/rbac/policies",
            json("subject", "role:pub", "object", "stream:flow/ns1/*", "action", "stream.publish"));
    assertThat(policy.status()).as(policy.body()).isEqualTo(201);
    assertThat(
            Auth.post(
                    service,
                    "/v1/tenants/flow/rbac/policies",
                    json(
                        "subject",
                        "role:pub",
                        "object",
                        "stream:flow/ns1/*",
                        "action",
                        "stream.publish"))
                .status())
        .isEqualTo(200);
    assertThat(
            admin(service).get("/v1/tenants/flow/rbac/policies").json().path("policies").toString())
        .contains("role:pub");
    assertThat(
            admin(service)
                .get("/v1/tenants/flow/rbac/groupings")
                .json()
                .path("groupings")
                .toString())
        .contains("role:tenant-admin");
  }

  @Test
  void adminEndpointsRefuseMissingForeignAndUnderprivilegedCredentials() {
    Auth.bootstrap("guard", "idp-guard", null, "alice");
    Auth.bootstrap("guard2", "idp-guard2", null, "alice");
    var none = admin(null).get("/v1/tenants/guard/rbac/policies");
    assertThat(none.status()).isEqualTo(401);
    assertThat(none.raw().headers().firstValue("WWW-Authenticate"))
        .hasValue("Bearer error=\"invalid_token\"");
    assertThat(none.contentType()).startsWith("application/problem+json");
    String other =
        Auth.serviceToken("guard2", OidcProvider.token("idp-guard2", "alice", Map.of()), "{}");
    assertThat(admin(other).get("/v1/tenants/guard/rbac/policies").status())
        .as("tid must equal the path tenant")
        .isEqualTo(401);
    assertThat(admin(other).put("/v1/tenants/guard", Http.tenant("guard", "x")).status())
        .isEqualTo(401);

    String narrow =
        Auth.serviceToken(
            "guard",
            OidcProvider.token("idp-guard", "alice", Map.of()),
            "{\"requested\":[\"rbac.view\"]}");
    assertThat(admin(narrow).get("/v1/tenants/guard/rbac/policies").status()).isEqualTo(200);
    var forbidden =
        admin(narrow).put("/v1/tenants/guard/namespaces/x", Http.namespace("guard", "x", "x"));
    assertThat(forbidden.status()).isEqualTo(403);
    assertThat(forbidden.json().path("code").asText()).isEqualTo("forbidden");
  }

  @Test
  void metadataReadsNeedATokenOfTheTenantOrAPlatformCredential() {
    Auth.bootstrap("readers", "idp-readers", null, "alice");
    Auth.bootstrap("readers2", "idp-readers2", null, "alice");
    Http operator = Http.shared();
    assertThat(
            operator
                .put("/v1/tenants/readers/namespaces/ns1", Http.namespace("readers", "ns1", "x"))
                .status())
        .isEqualTo(201);
    List<String> tenantReads =
        List.of(
            "/v1/tenants/readers",
            "/v1/tenants/readers/namespaces",
            "/v1/tenants/readers/namespaces/ns1",
            "/v1/tenants/readers/namespaces/ns1/streams",
            "/v1/tenants/readers/namespaces/ns1/placements");

    for (String path : tenantReads) {
      var anonymous = admin(null).get(path);
      assertThat(anonymous.status()).as(path).isEqualTo(401);
      assertThat(anonymous.contentType()).startsWith("application/problem+json");
      assertThat(anonymous.body()).doesNotContain("ns1");
    }
    assertThat(admin(null).get("/v1/tenants").status()).isEqualTo(401);
    assertThat(admin(null).get("/v1/brokers").status()).isEqualTo(401);

    // Only rbac.view: any permission in the tenant lets its holder read the tenant's metadata.
    String reader =
        Auth.serviceToken(
            "readers",
            OidcProvider.token("idp-readers", "alice", Map.of()),
            "{\"requested\":[\"rbac.view\"]}");
    for (String path : tenantReads) {
      assertThat(admin(reader).get(path).status()).as(path).isEqualTo(200);
    }
    assertThat(admin(reader).get("/v1/tenants/readers/namespaces/ns1").json().path("spec"))
        .isNotEmpty();
    assertThat(admin(reader).get("/v1/brokers").status()).isEqualTo(200);
    var everyTenant = admin(reader).get("/v1/tenants");
    assertThat(everyTenant.status()).isEqualTo(403);
    assertThat(everyTenant.json().path("code").asText()).isEqualTo("forbidden");

    String foreign =
        Auth.serviceToken("readers2", OidcProvider.token("idp-readers2", "alice", Map.of()), "{}");
    assertThat(admin(foreign).get("/v1/tenants/readers").status()).isEqualTo(401);
    assertThat(admin(foreign).get("/v1/tenants/readers/namespaces/ns1").status()).isEqualTo(401);
    assertThat(admin(reader + "x").get("/v1/brokers").status()).isEqualTo(401);

    Http broker = new Http(SharedServer.httpPort(), SharedServer.BROKER_TOKEN);
    assertThat(broker.get("/v1/tenants").status()).isEqualTo(200);
    assertThat(broker.get("/v1/tenants/readers/namespaces/ns1").status()).isEqualTo(200);
    assertThat(broker.put("/v1/tenants/readers", Http.tenant("readers", "x")).status())
        .as("the broker credential reads, it does not administer")
        .isEqualTo(401);
  }

  @Test
  void anUnknownPrincipalGetsForbiddenAndAnUnknownTenantLooksLikeABadToken() {
    Auth.bootstrap("nobody", "idp-nobody", null, "alice");
    var bob = Auth.exchange("nobody", OidcProvider.token("idp-nobody", "bob", Map.of()), "{}");
    assertThat(bob.status()).isEqualTo(403);
    assertThat(bob.body()).doesNotContain("service_token");
    var unknown =
        Auth.exchange("no-such-tenant", OidcProvider.token("idp-nobody", "alice", Map.of()), "{}");
    assertThat(unknown.status()).isEqualTo(401);
  }

  /**
   * Rows written straight into the RBAC tables — as another node sharing the database, or an
   * operator by hand, would — are enforced within a second, though this node has the tenant's
   * enforcer cached: the tables' trigger notifies every node on commit (in practice within
   * milliseconds; the second allows for a loaded machine).
   */
  @Test
  void aChangeWrittenStraightIntoTheRbacTablesIsEnforcedWithinASecond() throws Exception {
    Auth.bootstrap("tables", "idp-tables", null, "alice");
    String bob = Auth.principal(OidcProvider.issuer("idp-tables"), "bob");
    assertThat(
            Auth.exchange("tables", OidcProvider.token("idp-tables", "bob", Map.of()), "{}")
                .status())
        .isEqualTo(403);

    try (var db = TestDatabase.connect();
        var insert =
            db.prepareStatement(
                "INSERT INTO rbac_groupings (tenant, principal, role) VALUES ('tables', ?,"
                    + " 'role:tenant-admin')")) {
      insert.setString(1, bob);
      assertThat(insert.executeUpdate()).isEqualTo(1);
    }
    Http.awaitStatus(
        () ->
            Auth.exchange("tables", OidcProvider.token("idp-tables", "bob", Map.of()), "{}")
                .status(),
        200,
        Duration.ofSeconds(1));
    var granted = Auth.exchange("tables", OidcProvider.token("idp-tables", "bob", Map.of()), "{}");
    assertThat(granted.status()).as(granted.body()).isEqualTo(200);
    assertThat(
            SignedJWT.parse(granted.json().path("service_token").asText())
                .getJWTClaimsSet()
                .getStringListClaim("perms"))
        .contains("tenant.manage:tenant:tables");

    try (var db = TestDatabase.connect();
        var delete = db.prepareStatement("DELETE FROM rbac_groupings WHERE principal = ?")) {
      delete.setString(1, bob);
      assertThat(delete.executeUpdate()).isEqualTo(1);
    }
    Http.awaitStatus(
        () ->
            Auth.exchange("tables", OidcProvider.token("idp-tables", "bob", Map.of()), "{}")
                .status(),
        403,
        Duration.ofSeconds(1));
  }

  @Test
  void bootstrapIsRefusedWithoutTheSecretTwiceForATenantAndAbsentFromTheMainPort() {
    var issuer = List.of(Auth.issuerRecord("idp-boot", null));
    String admin = Auth.principal(OidcProvider.issuer("idp-boot"), "alice");
    assertThat(Auth.bootstrap("boot", issuer, List.of(admin), null).status()).isEqualTo(401);
    assertThat(Auth.bootstrap("boot", issuer, List.of(admin), "wrong-secret-0123456789").status())
        .isEqualTo(401);
    var created = Auth.bootstrap("boot", issuer, List.of(admin), SharedServer.BOOTSTRAP_TOKEN);
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    assertThat(created.json().path("tenant_id").asText()).isEqualTo("boot");
    assertThat(created.json().path("admin_principals").get(0).asText()).isEqualTo(admin);
    assertThat(created.json().path("display_name").asText()).isEqualTo("Tenant boot");
    var again = Auth.bootstrap("boot", issuer, List.of(admin), SharedServer.BOOTSTRAP_TOKEN);
    assertThat(again.status()).isEqualTo(409);
    assertThat(again.contentType()).startsWith("application/problem+json");
    assertThat(
            Auth.bootstrap("bad", issuer, List.of("not-a-principal"), SharedServer.BOOTSTRAP_TOKEN)
                .status())
        .isEqualTo(400);

    Http main = new Http(SharedServer.httpPort(), null);
    var onMain =
        main.send(
            main.request("/internal/bootstrap/tenants/main/initialize")
                .header("X-Service-Bootstrap-Token", SharedServer.BOOTSTRAP_TOKEN)
                .header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{}")));
    assertThat(onMain.status()).isEqualTo(404);
    assertThat(
            new Http(SharedServer.httpPort(), SharedServer.OPERATOR_TOKEN)
                .get("/v1/tenants/boot")
                .status())
        .as("bootstrap made a versioned tenant")
        .isEqualTo(200);
  }

  @Test
  void groupsFromTheUpstreamTokenGrantTheirRolesForThatExchangeOnly() {
    Auth.bootstrap("groups", "idp-groups", "groups", "alice");
    String admin =
        Auth.serviceToken("groups", OidcProvider.token("idp-groups", "alice", Map.of()), "{}");
    Auth.post(
        admin,
        "/v1/tenants/groups/rbac/policies",
        json("subject", "role:pub", "object", "stream:groups/ns/*", "action", "stream.publish"));
    var edge =
        Auth.post(
            admin,
            "/v1/tenants/groups/rbac/groupings",
            json("principal", "group:devs", "role", "role:pub"));
    assertThat(edge.status()).as(edge.body()).isEqualTo(201);

    var withGroup =
        Auth.exchange(
            "groups",
            OidcProvider.token("idp-groups", "carol", Map.of("groups", List.of("devs", "other"))),
            "{}");
    assertThat(withGroup.status()).as(withGroup.body()).isEqualTo(200);
    assertThat(Auth.perms(withGroup)).containsExactly("stream.publish:stream:groups/ns/*");
    var without =
        Auth.exchange("groups", OidcProvider.token("idp-groups", "carol", Map.of()), "{}");
    assertThat(without.status()).isEqualTo(403);
  }

  @Test
  void hintsNarrowInheritedGrantsAndForbidWhenNothingRemains() {
    Auth.bootstrap("hints", "idp-hints", null, "alice");
    String upstream = OidcProvider.token("idp-hints", "alice", Map.of());
    var narrowed =
        Auth.exchange(
            "hints",
            upstream,
            "{\"requested\":[\"stream.publish\"],\"resources\":[\"stream:hints/ns1/orders\"]}");
    assertThat(narrowed.status()).as(narrowed.body()).isEqualTo(200);
    assertThat(Auth.perms(narrowed)).containsExactly("stream.publish:stream:hints/ns1/orders");
    var other =
        Auth.exchange("hints", upstream, "{\"resources\":[\"stream:elsewhere/ns1/orders\"]}");
    assertThat(other.status()).as("another tenant's objects are never granted").isEqualTo(403);
    var unknownAction = Auth.exchange("hints", upstream, "{\"requested\":[\"stream.destroy\"]}");
    assertThat(unknownAction.status()).isEqualTo(400);
    var misspelt = Auth.exchange("hints", upstream, "{\"requestd\":[\"stream.publish\"]}");
    assertThat(misspelt.status())
        .as("a hint the server would drop must not widen the token: " + misspelt.body())
        .isEqualTo(400);
    assertThat(misspelt.body()).contains("\"field\":\"requestd\"");
    var twice =
        Auth.exchange(
            "hints",
            upstream,
            "{\"resources\":[\"stream:hints/ns1/orders\"],\"resources\":[\"tenant:hints\"]}");
    assertThat(twice.status()).as(twice.body()).isEqualTo(400);
    assertThat(twice.body()).contains("appears twice");
    var trailing = Auth.exchange("hints", upstream, "{\"requested\":[\"stream.publish\"]} {}");
    assertThat(trailing.status()).as(trailing.body()).isEqualTo(400);
  }

  /**
   * The contract makes the exchange's body optional: a client that sends none sends no Content-Type
   * either (curl -X POST, openapi-generator's clients), and is answered as for "{}". A body that is
   * there must still be JSON.
   */
  @Test
  void anExchangeWithoutABodyNeedsNoContentTypeAndABodyMustBeJson() {
    Auth.bootstrap("bodiless", "idp-bodiless", null, "alice");
    String upstream = OidcProvider.token("idp-bodiless", "alice", Map.of());
    Http http = new Http(SharedServer.httpPort(), upstream);
    var bare =
        http.send(
            http.request("/v1/tenants/bodiless/token/exchange")
                .POST(HttpRequest.BodyPublishers.noBody()));
    assertThat(bare.status()).as(bare.body()).isEqualTo(200);
    assertThat(Auth.perms(bare)).contains("tenant.manage:tenant:bodiless");

    var text =
        http.send(
            http.request("/v1/tenants/bodiless/token/exchange")
                .header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString("{}")));
    assertThat(text.status()).as(text.body()).isEqualTo(415);
    assertThat(text.contentType()).startsWith("application/problem+json");
    var charset =
        http.send(
            http.request("/v1/tenants/bodiless/token/exchange")
                .header("Content-Type", "application/json; charset=utf-8")
                .POST(HttpRequest.BodyPublishers.ofString("{}")));
    assertThat(charset.status()).as(charset.body()).isEqualTo(200);
  }

  /**
   * The RBAC writes and the bootstrap take JSON and say so: another Content-Type is a 415 and
   * nothing is stored, though the body would parse.
   */
  @Test
  void rbacWritesAndBootstrapRefuseABodyThatIsNotDeclaredJson() {
    Auth.bootstrap("typed", "idp-typed", null, "alice");
    String admin =
        Auth.serviceToken("typed", OidcProvider.token("idp-typed", "alice", Map.of()), "{}");
    Http http = new Http(SharedServer.httpPort(), admin);
    String policy =
        json("subject", "role:typed", "object", "stream:typed/ns/*", "action", "stream.publish")
            .toString();
    for (String path :
        List.of("/v1/tenants/typed/rbac/policies", "/v1/tenants/typed/rbac/groupings")) {
      String body =
          path.endsWith("policies")
              ? policy
              : json("principal", "group:devs", "role", "role:typed").toString();
      var text =
          http.send(
              http.request(path)
                  .header("Content-Type", "text/plain")
                  .POST(HttpRequest.BodyPublishers.ofString(body)));
      assertThat(text.status()).as(path + ": " + text.body()).isEqualTo(415);
      assertThat(text.contentType()).startsWith("application/problem+json");
      // It names what this resource reads, not the YAML that the metadata documents also take.
      assertThat(text.json().path("detail").asText())
          .isEqualTo("unsupported content type; send application/json");
      var yaml = http.get(path, "application/yaml");
      assertThat(yaml.status()).as(path + ": " + yaml.body()).isEqualTo(406);
      assertThat(yaml.json().path("detail").asText())
          .isEqualTo("cannot produce an acceptable representation; ask for application/json");
    }
    assertThat(http.get("/v1/tenants/typed/rbac/policies").body()).doesNotContain("role:typed");
    assertThat(http.get("/v1/tenants/typed/rbac/groupings").body()).doesNotContain("group:devs");

    Http bootstrap = new Http(SharedServer.bootstrapPort(), null);
    var untyped =
        bootstrap.send(
            bootstrap
                .request("/internal/bootstrap/tenants/untyped/initialize")
                .header("X-Service-Bootstrap-Token", SharedServer.BOOTSTRAP_TOKEN)
                .header("Content-Type", "text/plain")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "{\"display_name\": \"x\", \"initial_admin_principals\": []}")));
    assertThat(untyped.status()).as(untyped.body()).isEqualTo(415);
    var twice =
        bootstrap.send(
            bootstrap
                .request("/internal/bootstrap/tenants/untyped/initialize")
                .header("X-Service-Bootstrap-Token", SharedServer.BOOTSTRAP_TOKEN)
                .header("Content-Type", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "{\"display_name\": \"x\", \"display_name\": \"y\"}")));
    assertThat(twice.status()).as(twice.body()).isEqualTo(400);
    assertThat(twice.body()).contains("appears twice");
    assertThat(
            new Http(SharedServer.httpPort(), SharedServer.OPERATOR_TOKEN)
                .get("/v1/tenants/untyped")
                .status())
        .isEqualTo(404);
  }

  @Test
  void aNamespaceManagerCannotWriteBeyondItsNamespace() {
    Auth.bootstrap("scope", "idp-scope", null, "alice");
    String admin =
        Auth.serviceToken("scope", OidcProvider.token("idp-scope", "alice", Map.of()), "{}");
    for (String action : List.of("rbac.policy.manage", "rbac.view", "ns.manage")) {
      Auth.post(
          admin,
          "/v1/tenants/scope/rbac/policies",
          json("subject", "role:ns1-admin", "object", "namespace:scope/ns1", "action", action));
    }
    String dave = Auth.principal(OidcProvider.issuer("idp-scope"), "dave");
    assertThat(
            Auth.post(
                    admin,
                    "/v1/tenants/scope/rbac/groupings",
                    json("principal", dave, "role", "role:ns1-admin"))
                .status())
        .isEqualTo(201);
    String ns1 =
        Auth.serviceToken("scope", OidcProvider.token("idp-scope", "dave", Map.of()), "{}");

    String path = "/v1/tenants/scope/rbac/policies";
    assertThat(
            Auth.post(
                    ns1,
                    path,
                    json(
                        "subject",
                        "role:r",
                        "object",
                        "stream:scope/ns1/*",
                        "action",
                        "stream.subscribe"))
                .status())
        .isEqualTo(201);
    assertThat(
            Auth.post(
                    ns1,
                    path,
                    json(
                        "subject",
                        "role:r",
                        "object",
                        "stream:scope/ns2/*",
                        "action",
                        "stream.subscribe"))
                .status())
        .isEqualTo(403);
    assertThat(
            Auth.post(
                    ns1,
                    path,
                    json("subject", "role:r", "object", "namespace:scope/*", "action", "ns.manage"))
                .status())
        .isEqualTo(403);
    assertThat(
            Auth.post(
                    ns1,
                    path,
                    json("subject", "role:r", "object", "tenant:scope", "action", "tenant.manage"))
                .status())
        .isEqualTo(403);
    assertThat(
            Auth.post(
                    ns1,
                    "/v1/tenants/scope/rbac/groupings",
                    json("principal", dave, "role", "role:tenant-admin"))
                .status())
        .as("assigning a broader role is a broader write")
        .isEqualTo(403);
    assertThat(
            Auth.post(
                    admin,
                    path,
                    json("subject", "role:r", "object", "tenant:*", "action", "tenant.manage"))
                .status())
        .isEqualTo(400);
    assertThat(
            Auth.post(
                    admin,
                    path,
                    json(
                        "subject",
                        "role:r",
                        "object",
                        "stream:other/ns1/*",
                        "action",
                        "stream.publish"))
                .status())
        .isEqualTo(400);
    assertThat(
            Auth.post(
                    admin,
                    path,
                    json(
                        "subject",
                        "role:r",
                        "object",
                        "stream:*/ns1/x",
                        "action",
                        "stream.publish"))
                .status())
        .isEqualTo(400);
    assertThat(
            Auth.post(
                    admin,
                    path,
                    json(
                        "subject",
                        "role:r",
                        "object",
                        "stream:scope/ns1/x",
                        "action",
                        "stream.explode"))
                .status())
        .isEqualTo(400);
    var visible =
        new Http(SharedServer.httpPort(), ns1).get(path).json().path("policies").toString();
    assertThat(visible).contains("stream:scope/ns1/*").doesNotContain("tenant:scope");
  }

  @Test
  void anRbacChangeIsEnforcedOnTheNextExchange() {
    Auth.bootstrap("change", "idp-change", null, "alice");
    String admin =
        Auth.serviceToken("change", OidcProvider.token("idp-change", "alice", Map.of()), "{}");
    String erin = Auth.principal(OidcProvider.issuer("idp-change"), "erin");
    String upstream = OidcProvider.token("idp-change", "erin", Map.of());
    assertThat(Auth.exchange("change", upstream, "{}").status()).isEqualTo(403);
    Auth.post(
        admin,
        "/v1/tenants/change/rbac/policies",
        json("subject", erin, "object", "cache:change/ns/*", "action", "cache.read"));
    var granted = Auth.exchange("change", upstream, "{}");
    assertThat(granted.status()).isEqualTo(200);
    assertThat(Auth.perms(granted)).containsExactly("cache.read:cache:change/ns/*");
    String query =
        "?subject="
            + erin
            + "&object="
            + URLEncoder.encode("cache:change/ns/*", StandardCharsets.UTF_8)
            + "&action=cache.read";
    assertThat(admin(admin).delete("/v1/tenants/change/rbac/policies" + query).status())
        .isEqualTo(204);
    assertThat(Auth.exchange("change", upstream, "{}").status()).isEqualTo(403);
  }

  /**
   * A misspelt field of an issuer, a policy, a grouping or a bootstrap body was dropped without a
   * word: a mapping stored as its default ({@code group_claim} for {@code groups_claim}) made every
   * group grant stop matching. Refused, naming the field; an answer's own read-only {@code issuer}
   * is taken back.
   */
  @Test
  void misspeltFieldsOfIssuersRbacRulesAndBootstrapAreRefusedNamingThem() {
    Auth.bootstrap("fields", "idp-fields", null, "alice");
    String admin =
        Auth.serviceToken("fields", OidcProvider.token("idp-fields", "alice", Map.of()), "{}");
    ObjectNode issuer = Auth.issuerRecord("idp-fields-2", null);
    issuer.putObject("claim_mappings").put("group_claim", "groups");
    var refused = Auth.post(admin, "/v1/tenants/fields/idp-issuers", issuer);
    assertThat(refused.status()).as(refused.body()).isEqualTo(400);
    assertThat(refused.body()).contains("claim_mappings.group_claim: is not a known field");
    issuer.remove("claim_mappings");
    var typo = Auth.post(admin, "/v1/tenants/fields/idp-issuers", issuer.put("jwks_uri", "x"));
    assertThat(typo.status()).isEqualTo(400);
    assertThat(typo.body()).contains("jwks_uri: is not a known field");
    assertThat(admin(admin).get("/v1/tenants/fields/idp-issuers").json().path("idp_issuers"))
        .as("nothing stored")
        .hasSize(1);

    ObjectNode policy =
        Http.JSON
            .createObjectNode()
            .put("subjct", "role:r")
            .put("object", "tenant:fields")
            .put("action", "rbac.view");
    var badPolicy = Auth.post(admin, "/v1/tenants/fields/rbac/policies", policy);
    assertThat(badPolicy.status()).isEqualTo(400);
    assertThat(badPolicy.body()).contains("subjct: is not a known field");
    ObjectNode grouping =
        Http.JSON.createObjectNode().put("principle", "bob").put("role", "role:r");
    var badGrouping = Auth.post(admin, "/v1/tenants/fields/rbac/groupings", grouping);
    assertThat(badGrouping.status()).isEqualTo(400);
    assertThat(badGrouping.body()).contains("principle: is not a known field");
    ObjectNode echoed =
        Http.JSON
            .createObjectNode()
            .put("principal", "group:devs")
            .put("role", "role:r")
            .putNull("issuer");
    var taken = Auth.post(admin, "/v1/tenants/fields/rbac/groupings", echoed);
    assertThat(taken.status()).as(taken.body()).isBetween(200, 201);

    ObjectNode nested = Auth.issuerRecord("idp-fields", null).put("audience", "x");
    var bootstrap =
        Auth.bootstrap(
            "fields-boot", List.of(nested), List.of("alice"), SharedServer.BOOTSTRAP_TOKEN);
    assertThat(bootstrap.status()).as(bootstrap.body()).isEqualTo(400);
    assertThat(bootstrap.body()).contains("idp_issuers[0].audience: is not a known field");
  }

  @Test
  void issuersAreCreatedUpdatedListedAndDeletedByPercentEncodedIssuer() {
    Auth.bootstrap("issuers", "idp-issuers", null, "alice");
    String admin =
        Auth.serviceToken("issuers", OidcProvider.token("idp-issuers", "alice", Map.of()), "{}");
    ObjectNode record = Auth.issuerRecord("idp-extra", "groups");
    assertThat(Auth.post(admin, "/v1/tenants/issuers/idp-issuers", record).status()).isEqualTo(201);
    var updated =
        Auth.post(
            admin,
            "/v1/tenants/issuers/idp-issuers",
            record.put("jwks_url", OidcProvider.jwksUrl("idp-extra")));
    assertThat(updated.status()).isEqualTo(200);
    assertThat(updated.json().path("claim_mappings").path("groups_claim").asText())
        .isEqualTo("groups");
    assertThat(
            admin(admin).get("/v1/tenants/issuers/idp-issuers").json().path("idp_issuers").size())
        .isEqualTo(2);
    ObjectNode badUrl =
        Auth.issuerRecord("idp-x", null).put("discovery_url", "ftp://example.com/x");
    assertThat(Auth.post(admin, "/v1/tenants/issuers/idp-issuers", badUrl).status()).isEqualTo(400);
    String encoded = URLEncoder.encode(OidcProvider.issuer("idp-extra"), StandardCharsets.UTF_8);
    var deleted = admin(admin).delete("/v1/tenants/issuers/idp-issuers/" + encoded);
    assertThat(deleted.status()).as(deleted.body()).isEqualTo(204);
    assertThat(admin(admin).delete("/v1/tenants/issuers/idp-issuers/" + encoded).status())
        .isEqualTo(404);
  }

  @Test
  void aRotatedKeySignsAfterItsPublicationLeadAndTheOldTokenStillVerifies() throws Exception {
    Auth.bootstrap("rotate", "idp-rotate", null, "alice");
    String upstream = OidcProvider.token("idp-rotate", "alice", Map.of());
    String old = Auth.serviceToken("rotate", upstream, "{}");
    String oldKid = SignedJWT.parse(old).getHeader().getKeyID();
    var rotated =
        Auth.post(old, "/v1/tenants/rotate/signing-keys/rotate", Http.JSON.createObjectNode());
    assertThat(rotated.status()).as(rotated.body()).isEqualTo(202);
    String nextKid = rotated.json().path("kid").asText();
    assertThat(rotated.json().path("state").asText()).isEqualTo("next");
    String jwks =
        new Http(SharedServer.httpPort(), null)
            .get("/v1/tenants/rotate/.well-known/jwks.json")
            .body();
    assertThat(jwks)
        .as("the next key is published before it signs")
        .contains(nextKid)
        .contains(oldKid);
    assertThat(SignedJWT.parse(Auth.serviceToken("rotate", upstream, "{}")).getHeader().getKeyID())
        .isEqualTo(oldKid);

    Instant deadline = Instant.now().plus(SharedServer.JWKS_MAX_AGE).plusSeconds(10);
    String kid = oldKid;
    while (kid.equals(oldKid) && Instant.now().isBefore(deadline)) {
      Thread.sleep(200);
      kid = SignedJWT.parse(Auth.serviceToken("rotate", upstream, "{}")).getHeader().getKeyID();
    }
    assertThat(kid).isEqualTo(nextKid);
    assertThat(admin(old).get("/v1/tenants/rotate/rbac/policies").status())
        .as("the old key still verifies")
        .isEqualTo(200);
    var keys = admin(old).get("/v1/tenants/rotate/signing-keys").json().path("keys").toString();
    assertThat(keys)
        .contains("\"state\":\"passive\"")
        .contains("\"state\":\"active\"")
        .doesNotContain("\"d\"");
  }

  @Test
  void aTokenAlreadyAcceptedIsRefusedOnceItsKeyIsWithdrawn() throws Exception {
    Auth.bootstrap("withdrawn", "idp-withdrawn", null, "alice");
    String token =
        Auth.serviceToken(
            "withdrawn", OidcProvider.token("idp-withdrawn", "alice", Map.of()), "{}");
    String kid = SignedJWT.parse(token).getHeader().getKeyID();
    for (int i = 0; i < 3; i++) {
      assertThat(admin(token).get("/v1/tenants/withdrawn/rbac/policies").status())
          .as("use %d of the token", i + 1)
          .isEqualTo(200);
    }

    // An operator withdraws the key in the database, 15 minutes before its token expires.
    try (var db = TestDatabase.connect();
        var delete = db.prepareStatement("DELETE FROM signing_keys WHERE kid = ?")) {
      delete.setString(1, kid);
      assertThat(delete.executeUpdate()).isEqualTo(1);
    }
    Http.awaitStatus(
        () -> admin(token).get("/v1/tenants/withdrawn/rbac/policies").status(),
        401,
        Duration.ofSeconds(2));
    assertThat(admin(token).get("/v1/tenants/withdrawn/rbac/policies").status()).isEqualTo(401);
  }

  /**
   * The served document is the repository file: Liberty re-serializes it through its OpenAPI 3.0
   * model (dropping 3.1-only keywords such as {@code const}), so operations, their ids and response
   * codes, and the schema names are compared rather than the raw text.
   */
  @Test
  void theServedOpenApiDocumentIsTheRepositoryFile() throws Exception {
    var mapper =
        new com.fasterxml.jackson.databind.ObjectMapper(
            new com.fasterxml.jackson.dataformat.yaml.YAMLFactory());
    var file = mapper.readTree(new java.io.File("openapi/controlplane.yaml"));
    var served = new Http(SharedServer.httpPort(), null).get("/openapi", "application/yaml");
    assertThat(served.status()).isEqualTo(200);
    var tree = mapper.readTree(served.body());
    assertThat(operations(tree)).isEqualTo(operations(file)).hasSizeGreaterThan(25);
    List<String> fileSchemas = new java.util.ArrayList<>();
    file.path("components").path("schemas").fieldNames().forEachRemaining(fileSchemas::add);
    List<String> servedSchemas = new java.util.ArrayList<>();
    tree.path("components").path("schemas").fieldNames().forEachRemaining(servedSchemas::add);
    assertThat(servedSchemas).containsExactlyInAnyOrderElementsOf(fileSchemas);
  }

  private static java.util.Set<String> operations(com.fasterxml.jackson.databind.JsonNode doc) {
    java.util.Set<String> out = new java.util.TreeSet<>();
    doc.path("paths")
        .fields()
        .forEachRemaining(
            path ->
                path.getValue()
                    .fields()
                    .forEachRemaining(
                        op -> {
                          if (op.getValue().has("responses")) {
                            List<String> codes = new java.util.ArrayList<>();
                            op.getValue()
                                .path("responses")
                                .fieldNames()
                                .forEachRemaining(codes::add);
                            java.util.Collections.sort(codes);
                            out.add(
                                op.getKey()
                                    + " "
                                    + path.getKey()
                                    + " "
                                    + op.getValue().path("operationId").asText()
                                    + " "
                                    + codes);
                          }
                        }));
    return out;
  }
}
