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
import dev.controlplane.it.support.TestCluster;
import dev.controlplane.it.support.TestCluster.Node;
import dev.controlplane.it.support.TestDatabase;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Token exchange on every node of three, against a real OIDC provider over HTTP: followers issue
 * tokens too, signed with keys every node publishes, and what the leader changes in a tenant's
 * trust (a grant, its revocation, an issuer added or removed, a rotated key) reaches the exchange
 * and the JWKS of every node, whose caches learn of it from PostgreSQL's notifications. Followers
 * keep issuing while the leader is down, and a node left without a quorum still issues tokens and
 * serves key sets (it refuses admin reads). Each change's arrival on each node is printed; 10 s is
 * the bound asserted.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterTokenExchangeIT {

  private static final Duration SETTLE = Duration.ofSeconds(60);
  private static final Duration PROPAGATION = Duration.ofSeconds(10);
  private static final String TENANT = "cluster-trust";
  private static final String IDP = "idp-cluster-trust";
  private static final String PARTNER_IDP = "idp-cluster-partner";
  private static final List<String> ADMIN_PERMS =
      List.of(
          "tenant.manage:tenant:" + TENANT,
          "rbac.view:tenant:" + TENANT,
          "rbac.policy.manage:tenant:" + TENANT,
          "rbac.assignment.manage:tenant:" + TENANT);

  private TestCluster cluster;

  @BeforeAll
  void startClusterAndBootstrapTheTenant() throws Exception {
    cluster =
        TestCluster.start(
            "trust",
            3,
            Map.of(
                "SERVICE_BOOTSTRAP_ENABLED",
                "true",
                "SERVICE_BOOTSTRAP_TOKEN",
                SharedServer.BOOTSTRAP_TOKEN));
    Node leader = cluster.awaitLeader(SETTLE);
    Http.Reply bootstrapped =
        Auth.bootstrap(
            leader.bootstrapPort(),
            TENANT,
            List.of(Auth.issuerRecord(IDP, null)),
            List.of(Auth.principal(OidcProvider.issuer(IDP), "alice")),
            SharedServer.BOOTSTRAP_TOKEN);
    assertThat(bootstrapped.status()).as(bootstrapped.body()).isEqualTo(201);
  }

  @AfterAll
  void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  @Order(1)
  void everyNodeIssuesTokensSignedWithAKeyEveryNodePublishes() throws Exception {
    for (Node issuing : cluster.nodes()) {
      Http.Reply reply = exchange(issuing, "alice");
      assertThat(reply.status()).as("%s: %s", issuing.id, reply.body()).isEqualTo(200);
      SignedJWT token = SignedJWT.parse(reply.json().path("service_token").asText());
      assertThat(token.getJWTClaimsSet().getStringListClaim("perms"))
          .as("issued by %s", issuing.id)
          .containsExactlyInAnyOrderElementsOf(ADMIN_PERMS);
      for (Node publishing : cluster.nodes()) {
        OctetKeyPair key =
            (OctetKeyPair) jwks(publishing).getKeyByKeyId(token.getHeader().getKeyID());
        assertThat(key)
            .as("%s publishes the key %s signed with", publishing.id, issuing.id)
            .isNotNull();
        assertThat(token.verify(new Ed25519Verifier(key))).isTrue();
      }
    }
  }

  @Test
  @Order(2)
  void aGrantAndItsRevocationOnTheLeaderReachEveryNodesExchange() throws Exception {
    // Every node has answered bob once before the grant: a cache that missed the change would
    // keep answering as before.
    for (Node node : cluster.nodes()) {
      assertThat(exchange(node, "bob").status()).as(node.id).isEqualTo(403);
    }
    ObjectNode grouping = bobAsAdmin();
    Http.Reply granted = adminPost("/v1/tenants/" + TENANT + "/rbac/groupings", grouping);
    assertThat(granted.status()).as(granted.body()).isEqualTo(201);
    awaitOnEveryNode(
        "bob's grant",
        node -> exchange(node, "bob"),
        reply ->
            reply.status() == 200
                && Auth.perms(reply).containsAll(ADMIN_PERMS)
                && Auth.perms(reply).size() == ADMIN_PERMS.size());

    Http.Reply revoked = revoke(grouping);
    assertThat(revoked.status()).as(revoked.body()).isEqualTo(204);
    awaitOnEveryNode("bob's revocation", node -> exchange(node, "bob"), r -> r.status() == 403);

    // jcasbin prints each enforcer's model and every policy and role link it loads at INFO: who
    // holds which role does not belong in the log.
    for (Node node : cluster.nodes()) {
      assertThat(node.process().logText()).as(node.id).doesNotContain("Role links for:");
    }
  }

  @Test
  @Order(3)
  void anIssuerAddedOrRemovedOnTheLeaderIsTrustedOrRefusedByEveryNode() throws Exception {
    String carol = OidcProvider.token(PARTNER_IDP, "carol", Map.of());
    for (Node node : cluster.nodes()) {
      assertThat(exchangeToken(node, carol).status())
          .as("%s before the issuer", node.id)
          .isEqualTo(401);
    }
    Http.Reply added =
        adminPost("/v1/tenants/" + TENANT + "/idp-issuers", Auth.issuerRecord(PARTNER_IDP, null));
    assertThat(added.status()).as(added.body()).isEqualTo(201);
    // Trusted, but carol holds nothing in the tenant: 403, where an untrusted token gets 401.
    awaitOnEveryNode(
        "the partner issuer", node -> exchangeToken(node, carol), r -> r.status() == 403);

    Http.Reply removed =
        admin()
            .delete(
                "/v1/tenants/"
                    + TENANT
                    + "/idp-issuers/"
                    + encode(OidcProvider.issuer(PARTNER_IDP)));
    assertThat(removed.status()).as(removed.body()).isEqualTo(204);
    awaitOnEveryNode(
        "the partner issuer's removal", node -> exchangeToken(node, carol), r -> r.status() == 401);
  }

  @Test
  @Order(4)
  void aKeyRotatedOnTheLeaderIsPublishedByEveryNode() throws Exception {
    // Every node serves the key set from memory once read: read it on each first, so that a
    // follower shows the next key only if the leader's commit reached it and dropped what it held.
    awaitOnEveryNode(
        "the current keys",
        node -> new Http(node.httpPort(), null).get(jwksPath()),
        reply -> reply.status() == 200);
    Http.Reply rotated =
        admin()
            .send(
                admin()
                    .request("/v1/tenants/" + TENANT + "/signing-keys/rotate")
                    .POST(HttpRequest.BodyPublishers.noBody()));
    assertThat(rotated.status()).as(rotated.body()).isEqualTo(202);
    String next = rotated.json().path("kid").asText();
    assertThat(next).isNotEmpty();
    awaitOnEveryNode(
        "the next key " + next,
        node -> new Http(node.httpPort(), null).get(jwksPath()),
        reply -> reply.status() == 200 && reply.body().contains("\"" + next + "\""));
  }

  @Test
  @Order(5)
  void aRevocationMadeWhileAFollowersNotificationsAreCutOffTakesEffectWhenTheyReconnect()
      throws Exception {
    ObjectNode grouping = bobAsAdmin();
    assertThat(adminPost("/v1/tenants/" + TENANT + "/rbac/groupings", grouping).status())
        .isEqualTo(201);
    awaitOnEveryNode("bob's grant", node -> exchange(node, "bob"), r -> r.status() == 200);

    Node leader = cluster.awaitLeader(SETTLE);
    Node follower = cluster.others(leader).get(0);
    // Only this cluster's database: the shared test server's node id is cp1 too (the default).
    // Frozen, the follower cannot notice its LISTEN connection closing until the revocation's
    // notification, sent only to the connections listening at its commit, is gone for good.
    follower.freeze();
    try {
      assertThat(
              TestDatabase.queryLong(
                  TestCluster.dbUrl(),
                  "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity"
                      + " WHERE datname = current_database() AND application_name ="
                      + " 'controlplane-listener-"
                      + follower.id
                      + "'"))
          .as("%s's listener connection terminated", follower.id)
          .isEqualTo(1);
      Http.Reply revoked = revoke(grouping);
      assertThat(revoked.status()).as(revoked.body()).isEqualTo(204);
    } finally {
      follower.thaw();
    }
    awaitOnEveryNode(
        "bob's revocation, missed by " + follower.id + "'s listener",
        node -> exchange(node, "bob"),
        r -> r.status() == 403);
    assertThat(follower.process().logText()).contains("change notifications interrupted");
  }

  @Test
  @Order(7)
  void everyNodeKeepsIssuingTokensAndPublishingKeysWhileNoneLeads() throws Exception {
    Node leader = cluster.awaitLeader(SETTLE);
    List<Node> followers = cluster.others(leader);
    Node other = followers.get(0);
    Node alone = followers.get(1);
    // The last test of the class: the leader it kills is not started again.
    leader.kill();
    for (Node follower : followers) {
      Http.Reply reply = exchange(follower, "alice");
      assertThat(reply.status())
          .as("%s right after the leader was killed: %s", follower.id, reply.body())
          .isEqualTo(200);
    }
    // One node of three: no quorum, no leader, admin reads refused. The other is frozen, not
    // killed (the same silent peer to the node left alone), and thawed instead of started again.
    other.freeze();
    Http operator = new Http(alone.httpPort(), SharedServer.OPERATOR_TOKEN);
    // The two may have elected one of them before the other froze: a leader left alone then leads
    // until it has heard from no majority for the failure timeout (CheckQuorum), and a 503 seen
    // during the election is followed by its result. Both must hold at once, and then they last.
    Http.awaitStatus(
        () ->
            alone.readiness().map(r -> r.path("leader").asText()).orElse("?").isEmpty()
                ? operator.get("/v1/tenants/" + TENANT).status()
                : -1,
        503,
        SETTLE);
    assertThat(alone.readiness().orElseThrow().path("leader").asText()).isEmpty();

    Http.Reply issued = exchange(alone, "alice");
    assertThat(issued.status())
        .as("an exchange without a leader: %s", issued.body())
        .isEqualTo(200);
    assertThat(Auth.perms(issued)).containsExactlyInAnyOrderElementsOf(ADMIN_PERMS);
    SignedJWT token = SignedJWT.parse(issued.json().path("service_token").asText());
    OctetKeyPair key = (OctetKeyPair) jwks(alone).getKeyByKeyId(token.getHeader().getKeyID());
    assertThat(key).as("the key set without a leader").isNotNull();
    assertThat(token.verify(new Ed25519Verifier(key))).isTrue();
    assertThat(exchange(alone, "bob").status()).as("still no grant for bob").isEqualTo(403);
    Http.Reply adminRead =
        new Http(alone.httpPort(), token.serialize()).get("/v1/tenants/" + TENANT);
    assertThat(adminRead.status()).as("an admin read without a leader").isEqualTo(503);

    other.thaw();
    Node elected = cluster.awaitLeader(followers, SETTLE);
    for (Node node : followers) {
      assertThat(exchange(node, "alice").status())
          .as("%s once %s leads", node.id, elected.id)
          .isEqualTo(200);
    }
  }

  @Test
  @Order(6)
  void aTenantMadeThroughTheApiIsIssuedTokensByAFollowerFromItsFirstExchange() throws Exception {
    String tenant = "api-made";
    Node leader = cluster.awaitLeader(SETTLE);
    Http operator = leader.http();
    Http.Reply created = operator.put("/v1/tenants/" + tenant, Http.tenant(tenant, "by the API"));
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    Http.Reply issuer =
        post(operator, "/v1/tenants/" + tenant + "/idp-issuers", Auth.issuerRecord(IDP, null));
    assertThat(issuer.status()).as(issuer.body()).isEqualTo(201);
    ObjectNode policy = Http.JSON.createObjectNode();
    policy.put("subject", "role:tenant-admin");
    policy.put("object", "tenant:" + tenant);
    policy.put("action", "tenant.manage");
    Http.Reply allowed = post(operator, "/v1/tenants/" + tenant + "/rbac/policies", policy);
    assertThat(allowed.status()).as(allowed.body()).isEqualTo(201);
    ObjectNode grouping = Http.JSON.createObjectNode();
    grouping.put("principal", Auth.principal(OidcProvider.issuer(IDP), "dave"));
    grouping.put("role", "role:tenant-admin");
    Http.Reply granted = post(operator, "/v1/tenants/" + tenant + "/rbac/groupings", grouping);
    assertThat(granted.status()).as(granted.body()).isEqualTo(201);

    // No token was ever exchanged for the tenant: its first one is asked of a follower, which
    // cannot write a key of its own.
    Node follower = cluster.others(leader).get(0);
    String upstream = OidcProvider.token(IDP, "dave", Map.of());
    Http.Reply first = Auth.exchange(follower.httpPort(), tenant, upstream, "{}");
    long deadline = System.nanoTime() + PROPAGATION.toNanos();
    // 401 and 403 until the issuer and the grant reach the follower's caches.
    while ((first.status() == 401 || first.status() == 403) && System.nanoTime() < deadline) {
      Thread.sleep(20);
      first = Auth.exchange(follower.httpPort(), tenant, upstream, "{}");
    }
    assertThat(first.status()).as("%s: %s", follower.id, first.body()).isEqualTo(200);
    SignedJWT token = SignedJWT.parse(first.json().path("service_token").asText());
    for (Node publishing : cluster.nodes()) {
      Http.Reply keys =
          new Http(publishing.httpPort(), null)
              .get("/v1/tenants/" + tenant + "/.well-known/jwks.json");
      OctetKeyPair key =
          (OctetKeyPair) JWKSet.parse(keys.body()).getKeyByKeyId(token.getHeader().getKeyID());
      assertThat(key).as("%s publishes the key", publishing.id).isNotNull();
      assertThat(token.verify(new Ed25519Verifier(key))).isTrue();
    }
  }

  /** The grouping that makes bob, of the tenant's own IdP, a tenant admin. */
  private static ObjectNode bobAsAdmin() {
    ObjectNode grouping = Http.JSON.createObjectNode();
    grouping.put("principal", Auth.principal(OidcProvider.issuer(IDP), "bob"));
    grouping.put("role", "role:tenant-admin");
    return grouping;
  }

  private Http.Reply revoke(ObjectNode grouping) throws InterruptedException {
    return admin()
        .delete(
            "/v1/tenants/"
                + TENANT
                + "/rbac/groupings?principal="
                + encode(grouping.path("principal").asText())
                + "&role="
                + encode(grouping.path("role").asText()));
  }

  /** The exchange on {@code node} of a fresh token the tenant's own IdP issued {@code subject}. */
  private static Http.Reply exchange(Node node, String subject) {
    return exchangeToken(node, OidcProvider.token(IDP, subject, Map.of()));
  }

  private static Http.Reply exchangeToken(Node node, String upstream) {
    return Auth.exchange(node.httpPort(), TENANT, upstream, "{}");
  }

  /** Alice's admin API on the current leader, with a service token issued there. */
  private Http admin() throws InterruptedException {
    Node leader = cluster.awaitLeader(SETTLE);
    Http.Reply reply = exchange(leader, "alice");
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    return new Http(leader.httpPort(), reply.json().path("service_token").asText());
  }

  private Http.Reply adminPost(String path, ObjectNode body) throws InterruptedException {
    return post(admin(), path, body);
  }

  private static Http.Reply post(Http http, String path, ObjectNode body) {
    return http.send(
        http.request(path)
            .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
            .header("Content-Type", "application/json"));
  }

  /**
   * Waits until every node answers {@code call} as {@code expected}, for at most {@link
   * #PROPAGATION} from now; prints how long each took.
   */
  private void awaitOnEveryNode(
      String change, Function<Node, Http.Reply> call, Predicate<Http.Reply> expected)
      throws InterruptedException {
    long start = System.nanoTime();
    long deadline = start + PROPAGATION.toNanos();
    for (Node node : cluster.nodes()) {
      Http.Reply last = call.apply(node);
      while (!expected.test(last)) {
        assertThat(System.nanoTime())
            .as(
                "%s reaches %s within %s; it last answered %d %s",
                change, node.id, PROPAGATION, last.status(), last.body())
            .isLessThan(deadline);
        Thread.sleep(20);
        last = call.apply(node);
      }
      System.out.printf(
          "%s reached %s within %d ms%n", change, node.id, (System.nanoTime() - start) / 1_000_000);
    }
  }

  private static JWKSet jwks(Node node) throws java.text.ParseException {
    Http.Reply reply = new Http(node.httpPort(), null).get(jwksPath());
    assertThat(reply.status()).as("%s's JWKS: %s", node.id, reply.body()).isEqualTo(200);
    return JWKSet.parse(reply.body());
  }

  private static String jwksPath() {
    return "/v1/tenants/" + TENANT + "/.well-known/jwks.json";
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
