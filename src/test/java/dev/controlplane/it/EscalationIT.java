package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import dev.controlplane.it.support.Auth;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.KeyServer;
import dev.controlplane.it.support.OidcProvider;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.TestDatabase;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The escalations a hostile probe found inside a tenant (issue 14, items 1 to 6), each reproduced
 * as it was found and shown refused, against the real server and a real OIDC provider.
 */
class EscalationIT {

  @BeforeAll
  static void server() throws Exception {
    SharedServer.ensureStarted();
  }

  static ObjectNode json(String... pairs) {
    ObjectNode node = Http.JSON.createObjectNode();
    for (int i = 0; i < pairs.length; i += 2) {
      node.put(pairs[i], pairs[i + 1]);
    }
    return node;
  }

  static String adminToken(String tenant, String idp) {
    return Auth.serviceToken(tenant, OidcProvider.token(idp, "alice", Map.of()), "{}");
  }

  static Http.Reply grant(
      String token, String tenant, String subject, String object, String action) {
    return Auth.post(
        token,
        "/v1/tenants/" + tenant + "/rbac/policies",
        json("subject", subject, "object", object, "action", action));
  }

  static Http.Reply assign(String token, String tenant, String principal, String role) {
    return Auth.post(
        token,
        "/v1/tenants/" + tenant + "/rbac/groupings",
        json("principal", principal, "role", role));
  }

  /** 14.1: a partner IdP's "admins" are not the first IdP's admins. */
  @Test
  void groupsOfASecondIssuerNeverReceiveWhatWasGrantedToTheFirstIssuersGroups() throws Exception {
    Auth.bootstrap("esc-groups", "esc-main", "groups", "alice");
    String admin = adminToken("esc-groups", "esc-main");
    assertThat(
            grant(admin, "esc-groups", "role:ops", "namespace:esc-groups/*", "ns.manage").status())
        .isEqualTo(201);
    assertThat(assign(admin, "esc-groups", "group:admins", "role:ops").status()).isEqualTo(201);
    String issuers = "/v1/tenants/esc-groups/idp-issuers";

    // As found: a second issuer mapping groups the same way. Now refused, naming the rule.
    var asFound = Auth.post(admin, issuers, Auth.issuerRecord("esc-partner", "groups"));
    assertThat(asFound.status()).as(asFound.body()).isEqualTo(409);
    assertThat(asFound.json().path("detail").asText()).contains("groups_prefix");

    // Rows written around the rule (by hand, or before it) make both issuers' groups count for
    // nothing rather than the wrong thing.
    insertIssuerRow(
        "esc-groups", OidcProvider.issuer("esc-partner"), OidcProvider.jwksUrl("esc-partner"), "");
    String partnerAdmins =
        OidcProvider.token("esc-partner", "mallory", Map.of("groups", List.of("admins")));
    // Trusted once the node hears of the row (the tables' trigger notifies it on commit); then
    // refused for lack of grants, not 401.
    Http.awaitStatus(
        () -> Auth.exchange("esc-groups", partnerAdmins, "{}").status(),
        403,
        Duration.ofSeconds(1));
    deleteIssuerRow("esc-groups", OidcProvider.issuer("esc-partner"));

    var prefixed = Auth.issuerRecord("esc-partner", "groups");
    ((ObjectNode) prefixed.path("claim_mappings")).put("groups_prefix", "partner/");
    assertThat(Auth.post(admin, issuers, prefixed).status()).isEqualTo(201);
    assertThat(Auth.exchange("esc-groups", partnerAdmins, "{}").status())
        .as("the partner's admins gain nothing granted to group:admins")
        .isEqualTo(403);
    var mainAdmins =
        Auth.exchange(
            "esc-groups",
            OidcProvider.token("esc-main", "bob", Map.of("groups", List.of("admins"))),
            "{}");
    assertThat(Auth.perms(mainAdmins)).containsExactly("ns.manage:namespace:esc-groups/*");

    // Unless the tenant says so explicitly.
    assertThat(assign(admin, "esc-groups", "group:partner/admins", "role:ops").status())
        .isEqualTo(201);
    assertThat(Auth.perms(Auth.exchange("esc-groups", partnerAdmins, "{}")))
        .containsExactly("ns.manage:namespace:esc-groups/*");
    var mainClaimingPartner =
        Auth.exchange(
            "esc-groups",
            OidcProvider.token("esc-main", "eve", Map.of("groups", List.of("partner/admins"))),
            "{}");
    assertThat(mainClaimingPartner.status())
        .as("the first issuer cannot assert a group named into the partner's prefix either")
        .isEqualTo(403);
    var listed =
        new Http(SharedServer.httpPort(), admin).get("/v1/tenants/esc-groups/rbac/groupings");
    assertThat(listed.json().path("groupings").toString())
        .contains(
            "{\"principal\":\"group:admins\",\"role\":\"role:ops\",\"issuer\":\""
                + OidcProvider.issuer("esc-main")
                + "\"}")
        .contains(
            "{\"principal\":\"group:partner/admins\",\"role\":\"role:ops\",\"issuer\":\""
                + OidcProvider.issuer("esc-partner")
                + "\"}");
  }

  /** 14.2: tenant.manage alone must not re-point an issuer's keys and mint an admin token. */
  @Test
  void tenantManageAloneCannotAddOrRepointAnIssuer() throws Exception {
    Auth.bootstrap("esc-issuer", "esc-issuer-idp", null, "alice");
    String admin = adminToken("esc-issuer", "esc-issuer-idp");
    String mallory = Auth.principal(OidcProvider.issuer("esc-issuer-idp"), "mallory");
    grant(admin, "esc-issuer", "role:tenant-manager", "tenant:esc-issuer", "tenant.manage");
    assign(admin, "esc-issuer", mallory, "role:tenant-manager");
    String manager =
        Auth.serviceToken(
            "esc-issuer", OidcProvider.token("esc-issuer-idp", "mallory", Map.of()), "{}");

    ECKey attacker = new ECKeyGenerator(Curve.P_256).keyID("attacker").generate();
    try (KeyServer keys = new KeyServer(List.of(attacker))) {
      String attackerJwks = keys.jwksUrl();
      ObjectNode repointed = Auth.issuerRecord("esc-issuer-idp", null);
      repointed.remove("discovery_url");
      repointed.put("jwks_url", attackerJwks);
      var refused = Auth.post(manager, "/v1/tenants/esc-issuer/idp-issuers", repointed);
      assertThat(refused.status()).as(refused.body()).isEqualTo(403);
      assertThat(refused.json().path("detail").asText()).contains("rbac.policy.manage");
      ObjectNode added =
          Http.JSON
              .createObjectNode()
              .put("issuer", "http://127.0.0.1:1/mine")
              .put("jwks_url", attackerJwks);
      added.putArray("audiences").add(OidcProvider.AUDIENCE);
      assertThat(Auth.post(manager, "/v1/tenants/esc-issuer/idp-issuers", added).status())
          .isEqualTo(403);

      // The token Mallory would have minted for the admin is worthless: the keys never changed.
      String forged =
          OidcProvider.sign(
              attacker,
              new JWSHeader.Builder(JWSAlgorithm.ES256).keyID("attacker"),
              OidcProvider.claims("esc-issuer-idp", "alice").build());
      assertThat(Auth.exchange("esc-issuer", forged, "{}").status()).isEqualTo(401);
      assertThat(
              new Http(SharedServer.httpPort(), manager)
                  .get("/v1/tenants/esc-issuer/idp-issuers")
                  .body())
          .doesNotContain(attackerJwks);
      assertThat(Auth.post(admin, "/v1/tenants/esc-issuer/idp-issuers", added).status())
          .as("the tenant-admin set may")
          .isEqualTo(201);
    }
  }

  /** 14.3: issuer "ISS1|u" with subject "victim" was principal "ISS1" with subject "u|victim". */
  @Test
  void anIssuerContainingAPipeIsRefusedEverywhere() throws Exception {
    Auth.bootstrap("esc-pipe", "esc-pipe-idp", null, "alice");
    String admin = adminToken("esc-pipe", "esc-pipe-idp");
    ObjectNode piped =
        Auth.issuerRecord("esc-pipe-idp", null)
            .put("issuer", OidcProvider.issuer("esc-pipe-idp") + "|u");
    var viaApi = Auth.post(admin, "/v1/tenants/esc-pipe/idp-issuers", piped);
    assertThat(viaApi.status()).isEqualTo(400);
    assertThat(viaApi.body()).contains("'|'");
    var viaBootstrap =
        Auth.bootstrap(
            "esc-pipe2", List.of(piped), List.of("a".repeat(64)), SharedServer.BOOTSTRAP_TOKEN);
    assertThat(viaBootstrap.status()).isEqualTo(400);
    try (var db = TestDatabase.connect();
        var insert =
            db.prepareStatement(
                "INSERT INTO idp_issuers (tenant, issuer, audiences, jwks_url) VALUES ('esc-pipe', 'ISS1|u', '{a}', 'https://x/jwks')")) {
      insert.executeUpdate();
      throw new AssertionError("the schema accepted an issuer with '|'");
    } catch (java.sql.SQLException e) {
      assertThat(e.getSQLState()).as(e.getMessage()).isEqualTo("23514");
    }
  }

  /** 14.4: after delete and a new bootstrap, the old admin got the full set from a stale cache. */
  @Test
  void aDeletedAndRecreatedTenantDoesNotInheritItsPredecessorsGrants() throws Exception {
    Auth.bootstrap("esc-reborn", "esc-reborn-idp", null, "old-admin");
    String oldAdmin = OidcProvider.token("esc-reborn-idp", "old-admin", Map.of());
    assertThat(Auth.exchange("esc-reborn", oldAdmin, "{}").status())
        .as("the node caches the tenant's enforcer")
        .isEqualTo(200);
    var deleted = Http.shared().delete("/v1/tenants/esc-reborn");
    assertThat(deleted.status()).as(deleted.body()).isEqualTo(200);
    for (String table :
        List.of(
            "idp_issuers", "signing_keys", "rbac_policies", "rbac_groupings", "rbac_revisions")) {
      assertThat(
              TestDatabase.queryLong(
                  "SELECT count(*) FROM " + table + " WHERE tenant = 'esc-reborn'"))
          .as(table)
          .isZero();
    }
    // The same bootstrap again, with a new admin: as many RBAC rows as before.
    Auth.bootstrap("esc-reborn", "esc-reborn-idp", null, "new-admin");
    var old = Auth.exchange("esc-reborn", oldAdmin, "{}");
    assertThat(old.status()).as(old.body()).isEqualTo(403);
    var fresh =
        Auth.exchange(
            "esc-reborn", OidcProvider.token("esc-reborn-idp", "new-admin", Map.of()), "{}");
    assertThat(fresh.status()).as(fresh.body()).isEqualTo(200);
    assertThat(Auth.perms(fresh))
        .contains("tenant.manage:tenant:esc-reborn", "rbac.assignment.manage:tenant:esc-reborn");
  }

  /** 14.5: the platform imposes quotas; a tenant admin's PUT cannot lift them. */
  @Test
  void aTenantAdminCannotChangeItsOwnQuotas() {
    Auth.bootstrap("esc-quota", "esc-quota-idp", null, "alice");
    String quotas =
        "{\"apiVersion\":\"controlplane/v1\",\"kind\":\"Tenant\",\"metadata\":{\"name\":\"esc-quota\"},\"spec\":{\"description\":\"%s\",\"quotas\":{\"max_streams\":%d}}}";
    assertThat(
            Http.shared()
                .put("/v1/tenants/esc-quota", String.format(quotas, "set by the platform", 5))
                .status())
        .isEqualTo(200);
    Http admin = new Http(SharedServer.httpPort(), adminToken("esc-quota", "esc-quota-idp"));
    var raised = admin.put("/v1/tenants/esc-quota", String.format(quotas, "mine", 1000));
    assertThat(raised.status()).as(raised.body()).isEqualTo(403);
    assertThat(raised.json().path("detail").asText()).contains("spec.quotas");
    var same = admin.put("/v1/tenants/esc-quota", String.format(quotas, "renamed", 5));
    assertThat(same.status()).as(same.body()).isEqualTo(200);
    var without = admin.put("/v1/tenants/esc-quota", Http.tenant("esc-quota", "without quotas"));
    assertThat(without.status()).as(without.body()).isEqualTo(200);
    assertThat(without.json().path("spec").path("quotas").path("max_streams").asLong())
        .isEqualTo(5);
    assertThat(
            Http.shared()
                .put("/v1/tenants/esc-quota", String.format(quotas, "lifted", 50))
                .status())
        .isEqualTo(200);
  }

  /** 14.6: a tenant made through the API that has issued no token yet is not bootstrap's. */
  @Test
  void bootstrapRefusesATenantThatAlreadyExists() throws Exception {
    assertThat(Http.shared().put("/v1/tenants/esc-live", Http.tenant("esc-live", "live")).status())
        .isEqualTo(201);
    var takeover =
        Auth.bootstrap(
            "esc-live",
            List.of(Auth.issuerRecord("esc-live-idp", null)),
            List.of(Auth.principal(OidcProvider.issuer("esc-live-idp"), "mallory")),
            SharedServer.BOOTSTRAP_TOKEN);
    assertThat(takeover.status()).as(takeover.body()).isEqualTo(409);
    assertThat(TestDatabase.queryLong("SELECT count(*) FROM idp_issuers WHERE tenant = 'esc-live'"))
        .isZero();
    assertThat(
            TestDatabase.queryLong("SELECT count(*) FROM rbac_groupings WHERE tenant = 'esc-live'"))
        .isZero();
    assertThat(
            Http.shared()
                .get("/v1/tenants/esc-live")
                .json()
                .path("spec")
                .path("description")
                .asText())
        .isEqualTo("live");
  }

  static void insertIssuerRow(String tenant, String issuer, String jwksUrl, String prefix)
      throws Exception {
    try (var db = TestDatabase.connect();
        var insert =
            db.prepareStatement(
                "INSERT INTO idp_issuers (tenant, issuer, audiences, jwks_url, groups_claim, groups_prefix)"
                    + " VALUES (?, ?, '{"
                    + OidcProvider.AUDIENCE
                    + "}', ?, 'groups', ?)")) {
      insert.setString(1, tenant);
      insert.setString(2, issuer);
      insert.setString(3, jwksUrl);
      insert.setString(4, prefix);
      assertThat(insert.executeUpdate()).isEqualTo(1);
    }
  }

  static void deleteIssuerRow(String tenant, String issuer) throws Exception {
    try (var db = TestDatabase.connect();
        var delete =
            db.prepareStatement("DELETE FROM idp_issuers WHERE tenant = ? AND issuer = ?")) {
      delete.setString(1, tenant);
      delete.setString(2, issuer);
      assertThat(delete.executeUpdate()).isEqualTo(1);
    }
  }
}
