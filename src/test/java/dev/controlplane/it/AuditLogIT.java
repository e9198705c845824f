package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.controlplane.it.support.Auth;
import dev.controlplane.it.support.Grpc;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.LiveBrokers;
import dev.controlplane.it.support.OidcProvider;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.TestDatabase;
import dev.controlplane.proto.v1.AdminServiceGrpc;
import dev.controlplane.proto.v1.CreateStreamRequest;
import dev.controlplane.proto.v1.StreamSpec;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The audit log against the real server: one record per operation kind, field by field, read back
 * through {@code GET /v1/tenants/{t}/audit}; nothing for refused, failed-precondition or dry-run
 * writes; paging, filters and the permission.
 */
class AuditLogIT {

  private static final String TENANT = "audited";
  private static final String IDP = "idp-audit";
  private static String alice;
  private static String aliceId;
  private static Instant bootstrapStart;
  private static LiveBrokers brokers;

  @BeforeAll
  static void setUp() throws Exception {
    SharedServer.ensureStarted();
    bootstrapStart = Instant.now();
    Auth.bootstrap(TENANT, IDP, null, "alice");
    aliceId = Auth.principal(OidcProvider.issuer(IDP), "alice");
    alice = Auth.serviceToken(TENANT, OidcProvider.token(IDP, "alice", Map.of()), "{}");
    brokers = new LiveBrokers("audit-broker");
    assertThat(asAlice().put(ns("orders"), Http.namespace(TENANT, "orders", "")).status())
        .isEqualTo(201);
  }

  @AfterAll
  static void tearDown() throws Exception {
    if (brokers != null) {
      brokers.close();
    }
  }

  private static Http asAlice() {
    return new Http(SharedServer.httpPort(), alice);
  }

  private static String ns(String name) {
    return "/v1/tenants/" + TENANT + "/namespaces/" + name;
  }

  private static String q(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  /** One page of the tenant's audit log as {@code token} sees it. */
  private static Http.Reply audit(String token, String query) {
    return new Http(SharedServer.httpPort(), token)
        .get("/v1/tenants/" + TENANT + "/audit" + (query.isEmpty() ? "" : "?" + query));
  }

  private static List<JsonNode> records(String query) {
    Http.Reply reply = audit(alice, query);
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    return StreamSupport.stream(reply.json().path("records").spliterator(), false).toList();
  }

  /** The records of {@code operation} on {@code resource}: newest first. */
  private static List<JsonNode> of(String operation, String resource) {
    return records("limit=1000&operation=" + q(operation)).stream()
        .filter(r -> resource.equals(r.path("resource").asText()))
        .toList();
  }

  private static JsonNode only(String operation, String resource) {
    List<JsonNode> found = of(operation, resource);
    assertThat(found).as("records of %s on %s", operation, resource).hasSize(1);
    return found.get(0);
  }

  /** The fields every record of a caller over HTTP from this test has. */
  private static void byAliceOverHttp(JsonNode r) {
    assertThat(r.path("principal").asText()).isEqualTo(aliceId);
    assertThat(r.path("principal_type").asText()).isEqualTo("user");
    assertThat(r.path("tenant").asText()).isEqualTo(TENANT);
    assertThat(r.path("result").asText()).isEqualTo("success");
    assertThat(r.path("reason").isNull()).isTrue();
    assertThat(r.path("source_ip").asText()).isEqualTo("127.0.0.1");
    assertThat(r.path("user_agent").asText()).startsWith("Java-http-client");
    assertThat(r.path("node").asText()).isNotEmpty();
  }

  private static ObjectNode json(String... pairs) {
    ObjectNode node = Http.JSON.createObjectNode();
    for (int i = 0; i < pairs.length; i += 2) {
      node.put(pairs[i], pairs[i + 1]);
    }
    return node;
  }

  @Test
  void bootstrapIsRecordedAsTheBootstrapPrincipalWithWhatItSeeded() {
    JsonNode r = only("bootstrap.initialize", "tenant:" + TENANT);
    assertThat(r.path("event_type").asText()).isEqualTo("bootstrap");
    assertThat(r.path("action").asText()).isEqualTo("initialize");
    assertThat(r.path("principal").asText()).isEqualTo("bootstrap");
    assertThat(r.path("principal_type").asText()).isEqualTo("bootstrap");
    assertThat(r.path("tenant").asText()).isEqualTo(TENANT);
    assertThat(r.path("result").asText()).isEqualTo("success");
    assertThat(r.path("source_ip").asText()).isEqualTo("127.0.0.1");
    assertThat(r.path("version").asLong()).isPositive();
    assertThat(Instant.parse(r.path("timestamp").asText())).isAfter(bootstrapStart);
    assertThat(r.path("metadata").path("admin_principals").get(0).asText()).isEqualTo(aliceId);
    assertThat(r.path("metadata").path("issuers").get(0).asText())
        .isEqualTo(OidcProvider.issuer(IDP));
  }

  @Test
  void httpWritesOfTenantNamespaceAndStreamAreRecordedFieldByField() {
    Http.Reply tenant = asAlice().put("/v1/tenants/" + TENANT, Http.tenant(TENANT, "changed"));
    assertThat(tenant.status()).as(tenant.body()).isEqualTo(200);
    Http.Reply namespace = asAlice().put(ns("http-ns"), Http.namespace(TENANT, "http-ns", "x"));
    assertThat(namespace.status()).isEqualTo(201);
    Http.Reply stream =
        asAlice()
            .put(ns("orders") + "/streams/http-s", Http.stream(TENANT, "orders", "http-s", 1, 1));
    assertThat(stream.status()).as(stream.body()).isEqualTo(201);
    Http.Reply deleted = asAlice().delete(ns("orders") + "/streams/http-s");
    assertThat(deleted.status()).as(deleted.body()).isEqualTo(200);

    JsonNode t = only("tenant.update", "tenant:" + TENANT);
    byAliceOverHttp(t);
    assertThat(t.path("event_type").asText()).isEqualTo("metadata");
    assertThat(t.path("action").asText()).isEqualTo("update");
    assertThat(t.path("version").asLong()).isEqualTo(tenant.version());

    JsonNode n = only("namespace.create", "namespace:" + TENANT + "/http-ns");
    byAliceOverHttp(n);
    assertThat(n.path("namespace").asText()).isEqualTo("http-ns");
    assertThat(n.path("stream").isNull()).isTrue();
    assertThat(n.path("version").asLong()).isEqualTo(namespace.version());

    String key = "stream:" + TENANT + "/orders/http-s";
    JsonNode s = only("stream.create", key);
    byAliceOverHttp(s);
    assertThat(s.path("namespace").asText()).isEqualTo("orders");
    assertThat(s.path("stream").asText()).isEqualTo("http-s");
    assertThat(s.path("metadata").path("kind").asText()).isEqualTo("Stream");
    // The stream and its placement: one operation, one record at the operation's last version.
    assertThat(s.path("metadata").path("changes").asInt()).isEqualTo(2);
    assertThat(s.path("version").asLong()).isEqualTo(stream.version() + 1);

    JsonNode d = only("stream.delete", key);
    byAliceOverHttp(d);
    assertThat(d.path("action").asText()).isEqualTo("delete");
  }

  /**
   * A new tenant gets its first signing key in the same operation; that key's record stood in for
   * the operation's own, so no tenant.create record was ever written.
   */
  @Test
  void aTenantsCreationIsRecordedBesideItsFirstSigningKey() {
    Http operator = new Http(SharedServer.httpPort(), SharedServer.OPERATOR_TOKEN);
    String created = "audit-created";
    Http.Reply reply = operator.put("/v1/tenants/" + created, Http.tenant(created, "new"));
    assertThat(reply.status()).as(reply.body()).isEqualTo(201);

    Http.Reply tenant = operator.get("/v1/audit?tenant=" + created + "&operation=tenant.create");
    assertThat(tenant.status()).as(tenant.body()).isEqualTo(200);
    assertThat(tenant.json().path("records")).hasSize(1);
    JsonNode t = tenant.json().path("records").get(0);
    assertThat(t.path("resource").asText()).isEqualTo("tenant:" + created);
    assertThat(t.path("principal_type").asText()).isEqualTo("operator");
    assertThat(t.path("version").asLong()).isEqualTo(reply.version());

    Http.Reply key = operator.get("/v1/audit?tenant=" + created + "&operation=signing_key.create");
    assertThat(key.json().path("records")).hasSize(1);
    assertThat(key.json().path("records").get(0).path("version").asLong())
        .isEqualTo(reply.version());
  }

  /**
   * PostgreSQL cannot store a NUL: a User-Agent holding one made the write it came with fail with
   * 400, and poisoned every exchange record batched with it. It is recorded with the character
   * replaced.
   */
  @Test
  void aUserAgentWithControlCharactersNeitherFailsTheWriteNorIsStoredAsSent() {
    Http operator = new Http(SharedServer.httpPort(), SharedServer.OPERATOR_TOKEN);
    String created = "audit-nul-agent";
    Http.Reply reply =
        operator.sendVerbatim(
            "PUT",
            "/v1/tenants/" + created,
            "User-Agent: evil\u0000agent\u001b[31m\r\n",
            Http.tenant(created, "x"));
    assertThat(reply.status()).as(reply.body()).isEqualTo(201);
    Http.Reply records = operator.get("/v1/audit?tenant=" + created + "&operation=tenant.create");
    assertThat(records.json().path("records")).hasSize(1);
    assertThat(records.json().path("records").get(0).path("user_agent").asText())
        .isEqualTo("evil\uFFFDagent\uFFFD[31m");
  }

  @Test
  void aGrpcWriteIsRecordedWithItsCallerAndTheGrpcUserAgent() {
    try (Grpc grpc = new Grpc(SharedServer.grpcPort(), alice)) {
      AdminServiceGrpc.newBlockingStub(grpc.channel())
          .createStream(
              CreateStreamRequest.newBuilder()
                  .setTenantId(TENANT)
                  .setNamespace("orders")
                  .setStream("grpc-s")
                  .setSpec(StreamSpec.newBuilder().setShards(1).setReplicationFactor(1))
                  .build());
    }
    JsonNode r = only("stream.create", "stream:" + TENANT + "/orders/grpc-s");
    assertThat(r.path("principal").asText()).isEqualTo(aliceId);
    assertThat(r.path("principal_type").asText()).isEqualTo("user");
    assertThat(r.path("source_ip").asText()).isEqualTo("127.0.0.1");
    assertThat(r.path("user_agent").asText()).contains("grpc-java");
    assertThat(r.path("stream").asText()).isEqualTo("grpc-s");
    assertThat(r.path("result").asText()).isEqualTo("success");
  }

  @Test
  void aBrokerRegistrationIsRecordedAsTheBrokerAndItsHeartbeatsAreNot() throws Exception {
    Thread.sleep(1000); // a few more heartbeats (every 300 ms)
    String mine = " FROM audit_records WHERE resource = 'broker:audit-broker'";
    assertThat(TestDatabase.queryLong("SELECT count(*)" + mine)).isEqualTo(1);
    assertThat(
            TestDatabase.queryLong(
                "SELECT count(*)"
                    + mine
                    + " AND operation = 'broker.register' AND event_type = 'broker'"
                    + " AND principal = 'broker' AND principal_type = 'broker'"
                    + " AND tenant IS NULL AND source_ip = '127.0.0.1' AND result = 'success'"
                    + " AND metadata->>'address' = '127.0.0.1:7400'"))
        .isEqualTo(1);
  }

  @Test
  void rbacChangesAreRecordedWithWhatChanged() {
    ObjectNode policy =
        json("subject", "role:auditors", "object", "tenant:" + TENANT, "action", "audit.view");
    assertThat(Auth.post(alice, "/v1/tenants/" + TENANT + "/rbac/policies", policy).status())
        .isEqualTo(201);
    // The same policy again changes nothing: no second record.
    assertThat(Auth.post(alice, "/v1/tenants/" + TENANT + "/rbac/policies", policy).status())
        .isEqualTo(200);
    String daveId = Auth.principal(OidcProvider.issuer(IDP), "dave");
    assertThat(
            Auth.post(
                    alice,
                    "/v1/tenants/" + TENANT + "/rbac/groupings",
                    json("principal", daveId, "role", "role:auditors"))
                .status())
        .isEqualTo(201);

    JsonNode p = only("rbac.policy.add", "tenant:" + TENANT);
    byAliceOverHttp(p);
    assertThat(p.path("event_type").asText()).isEqualTo("rbac");
    assertThat(p.path("metadata").path("subject").asText()).isEqualTo("role:auditors");
    assertThat(p.path("metadata").path("action").asText()).isEqualTo("audit.view");
    assertThat(p.path("version").isNull()).isTrue();
    JsonNode g = only("rbac.grouping.add", "role:auditors");
    byAliceOverHttp(g);
    assertThat(g.path("metadata").path("principal").asText()).isEqualTo(daveId);
  }

  @Test
  void issuerChangesAreRecorded() {
    String path = "/v1/tenants/" + TENANT + "/idp-issuers";
    assertThat(Auth.post(alice, path, Auth.issuerRecord("idp-audit-2", null)).status())
        .isEqualTo(201);
    String issuer = OidcProvider.issuer("idp-audit-2");
    assertThat(asAlice().delete(path + "/" + q(issuer)).status()).isEqualTo(204);

    JsonNode created = only("issuer.create", "issuer:" + issuer);
    byAliceOverHttp(created);
    assertThat(created.path("event_type").asText()).isEqualTo("issuer");
    assertThat(created.path("metadata").path("issuer").asText()).isEqualTo(issuer);
    assertThat(created.path("metadata").path("audiences").get(0).asText())
        .isEqualTo(OidcProvider.AUDIENCE);
    byAliceOverHttp(only("issuer.delete", "issuer:" + issuer));
  }

  @Test
  void aKeyRotationIsRecordedWithTheNewKidAndItsActivationByTheService() throws Exception {
    Http.Reply rotated =
        asAlice()
            .send(
                asAlice()
                    .request("/v1/tenants/" + TENANT + "/signing-keys/rotate")
                    .POST(HttpRequest.BodyPublishers.noBody()));
    assertThat(rotated.status()).as(rotated.body()).isEqualTo(202);
    String kid = rotated.json().path("kid").asText();

    JsonNode r = only("signing_key.rotate", "signing_key:" + kid);
    byAliceOverHttp(r);
    assertThat(r.path("event_type").asText()).isEqualTo("signing_key");
    assertThat(r.path("metadata").path("kid").asText()).isEqualTo(kid);
    assertThat(r.path("metadata").path("activate_after").asText()).isNotEmpty();

    // The leader's rotation duty activates it after the JWKS max-age: the service's own record.
    Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
    List<JsonNode> activated = of("signing_key.activate", "signing_key:" + kid);
    while (activated.isEmpty() && Instant.now().isBefore(deadline)) {
      Thread.sleep(250);
      activated = of("signing_key.activate", "signing_key:" + kid);
    }
    assertThat(activated).hasSize(1);
    assertThat(activated.get(0).path("principal").asText()).isEqualTo("controlplane");
    assertThat(activated.get(0).path("principal_type").asText()).isEqualTo("system");
    assertThat(activated.get(0).path("source_ip").isNull()).isTrue();
  }

  @Test
  void anIssuedExchangeIsTiedToTheTokenItIssued() throws Exception {
    Http.Reply reply = Auth.exchange(TENANT, OidcProvider.token(IDP, "alice", Map.of()), "{}");
    assertThat(reply.status()).isEqualTo(200);
    JWTClaimsSet claims =
        SignedJWT.parse(reply.json().path("service_token").asText()).getJWTClaimsSet();
    String jti = claims.getJWTID();
    assertThat(jti).matches("[0-9a-f-]{36}");
    long revision =
        TestDatabase.queryLong(
            "SELECT revision FROM rbac_revisions WHERE tenant = '" + TENANT + "'");

    JsonNode r = awaitRecord("operation=token.exchange&principal=" + aliceId, "jti", jti);
    assertThat(r.path("event_type").asText()).isEqualTo("token_exchange");
    assertThat(r.path("action").asText()).isEqualTo("issue");
    byAliceOverHttp(r);
    assertThat(r.path("principal").asText()).isEqualTo(claims.getSubject());
    JsonNode m = r.path("metadata");
    assertThat(m.path("upstream_iss").asText()).isEqualTo(OidcProvider.issuer(IDP));
    assertThat(m.path("upstream_sub").asText()).isEqualTo("alice");
    List<String> perms = new ArrayList<>();
    m.path("perms").forEach(p -> perms.add(p.asText()));
    assertThat(perms).isEqualTo(claims.getStringListClaim("perms"));
    assertThat(m.path("rbac_revision").asLong()).isEqualTo(revision);
    assertThat(Instant.parse(m.path("expires_at").asText()))
        .isEqualTo(claims.getExpirationTime().toInstant());
    assertThat(r.path("version").isNull()).isTrue();
  }

  @Test
  void refusedExchangesAreRecordedWithTheirReason() throws Exception {
    Instant start = Instant.now();
    String wrongAudience =
        OidcProvider.sign(
            IDP,
            OidcProvider.es256(IDP),
            OidcProvider.claims(IDP, "mallory").audience("someone-else").build());
    assertThat(Auth.exchange(TENANT, wrongAudience, "{}").status()).isEqualTo(401);
    // A valid identity holding nothing in the tenant.
    assertThat(Auth.exchange(TENANT, OidcProvider.token(IDP, "nobody", Map.of()), "{}").status())
        .isEqualTo(403);

    Http anonymous = new Http(SharedServer.httpPort(), null);
    assertThat(
            anonymous
                .send(
                    anonymous
                        .request("/v1/tenants/" + TENANT + "/token/exchange")
                        .POST(HttpRequest.BodyPublishers.ofString("{}"))
                        .header("Content-Type", "application/json"))
                .status())
        .isEqualTo(401);

    String since = "&since=" + q(start.toString());
    String anonymousQuery = "operation=token.exchange&principal=anonymous" + since;
    JsonNode invalid =
        awaitRecord(anonymousQuery, "detail", "the token's audience is not accepted");
    assertThat(invalid.path("result").asText()).isEqualTo("refused");
    assertThat(invalid.path("reason").asText()).isEqualTo("invalid_token");
    assertThat(invalid.path("principal_type").asText()).isEqualTo("anonymous");
    assertThat(invalid.path("source_ip").asText()).isEqualTo("127.0.0.1");
    JsonNode noToken = awaitRecord(anonymousQuery, "detail", "a bearer token is required");
    assertThat(noToken.path("reason").asText()).isEqualTo("invalid_token");
    assertThat(records(anonymousQuery)).hasSize(2);

    String nobodyId = Auth.principal(OidcProvider.issuer(IDP), "nobody");
    JsonNode forbidden =
        awaitRecord("operation=token.exchange&principal=" + nobodyId + since, null, null);
    assertThat(forbidden.path("result").asText()).isEqualTo("refused");
    assertThat(forbidden.path("reason").asText()).isEqualTo("forbidden");
    assertThat(forbidden.path("metadata").path("upstream_sub").asText()).isEqualTo("nobody");
    assertThat(forbidden.path("metadata").path("granted").asInt()).isZero();
  }

  /** Exchange rows are stored off the request's path: wait for the one with the field's value. */
  private static JsonNode awaitRecord(String query, String field, String value)
      throws InterruptedException {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
    while (true) {
      List<JsonNode> found =
          records(query).stream()
              .filter(r -> field == null || value.equals(r.path("metadata").path(field).asText()))
              .toList();
      if (!found.isEmpty() || Instant.now().isAfter(deadline)) {
        assertThat(found).as("records for %s", query).hasSize(1);
        return found.get(0);
      }
      Thread.sleep(100);
    }
  }

  @Test
  void refusedFailedPreconditionAndDryRunWritesLeaveNoRecord() {
    Http http = asAlice();
    assertThat(http.put(ns("dry") + "?dryRun=All", Http.namespace(TENANT, "dry", "")).status())
        .isEqualTo(201);
    assertThat(
            http.send(
                    http.request(ns("orders"))
                        .PUT(
                            HttpRequest.BodyPublishers.ofString(
                                Http.namespace(TENANT, "orders", "other")))
                        .header("Content-Type", "application/json")
                        .header("If-Match", "\"999999\""))
                .status())
        .isEqualTo(412);
    assertThat(http.delete(ns("absent")).status()).isEqualTo(404);
    String stream = ns("orders") + "/streams/twice";
    assertThat(http.put(stream, Http.stream(TENANT, "orders", "twice", 1, 1)).status())
        .isEqualTo(201);
    assertThat(http.put(stream, Http.stream(TENANT, "orders", "twice", 2, 1)).status())
        .isEqualTo(409);

    assertThat(of("namespace.create", "namespace:" + TENANT + "/dry")).isEmpty();
    assertThat(of("namespace.update", "namespace:" + TENANT + "/orders")).isEmpty();
    assertThat(of("namespace.delete", "namespace:" + TENANT + "/absent")).isEmpty();
    assertThat(of("stream.create", "stream:" + TENANT + "/orders/twice")).hasSize(1);
    assertThat(of("stream.update", "stream:" + TENANT + "/orders/twice")).isEmpty();
  }

  @Test
  void pagesWalkEveryRecordOnceNewestFirst() {
    Instant start = Instant.now();
    for (int i = 0; i < 5; i++) {
      assertThat(asAlice().put(ns("page-" + i), Http.namespace(TENANT, "page-" + i, "")).status())
          .isEqualTo(201);
    }
    List<String> seen = new ArrayList<>();
    String token = "";
    int pages = 0;
    do {
      Http.Reply reply =
          audit(
              alice,
              "limit=2&operation=namespace.create&since="
                  + q(start.toString())
                  + "&page_token="
                  + token);
      assertThat(reply.status()).isEqualTo(200);
      reply.json().path("records").forEach(r -> seen.add(r.path("namespace").asText()));
      token = reply.json().path("next_page_token").asText();
      pages++;
    } while (!token.isEmpty() && pages < 10);
    assertThat(seen).containsExactly("page-4", "page-3", "page-2", "page-1", "page-0");
    assertThat(pages).isEqualTo(3);
  }

  @Test
  void filtersSelectByTimePrincipalAndOperation() {
    Instant before = Instant.now();
    Http operator = new Http(SharedServer.httpPort(), SharedServer.OPERATOR_TOKEN);
    assertThat(operator.put(ns("by-operator"), Http.namespace(TENANT, "by-operator", "")).status())
        .isEqualTo(201);
    Instant after = Instant.now();

    List<JsonNode> byOperator = records("principal=operator&since=" + q(before.toString()));
    assertThat(byOperator).hasSize(1);
    assertThat(byOperator.get(0).path("principal_type").asText()).isEqualTo("operator");
    assertThat(byOperator.get(0).path("namespace").asText()).isEqualTo("by-operator");

    assertThat(records("operation=namespace.create&until=" + q(before.toString())))
        .noneMatch(r -> r.path("namespace").asText().equals("by-operator"));
    assertThat(
            records(
                "operation=namespace.create&since="
                    + q(before.toString())
                    + "&until="
                    + q(after.toString())))
        .extracting(r -> r.path("namespace").asText())
        .contains("by-operator");
    assertThat(records("operation=namespace.delete&since=" + q(before.toString()))).isEmpty();
    assertThat(records("principal=" + aliceId + "&since=" + q(after.toString()))).isEmpty();
  }

  private static int addPolicy(String subject, String object, String action) {
    return Auth.post(
            alice,
            "/v1/tenants/" + TENANT + "/rbac/policies",
            json("subject", subject, "object", object, "action", action))
        .status();
  }

  @Test
  void readingNeedsAuditViewOrRbacView() throws Exception {
    String path = "/v1/tenants/" + TENANT + "/rbac/";
    String erinId = Auth.principal(OidcProvider.issuer(IDP), "erin");
    assertThat(addPolicy("role:publisher", "stream:" + TENANT + "/orders/*", "stream.publish"))
        .isIn(200, 201);
    assertThat(
            Auth.post(
                    alice, path + "groupings", json("principal", erinId, "role", "role:publisher"))
                .status())
        .isEqualTo(201);
    String erin = Auth.serviceToken(TENANT, OidcProvider.token(IDP, "erin", Map.of()), "{}");
    Http.Reply refused = audit(erin, "");
    assertThat(refused.status()).isEqualTo(403);
    assertThat(refused.contentType()).startsWith("application/problem+json");
    assertThat(refused.json().path("code").asText()).isEqualTo("forbidden");

    assertThat(addPolicy("role:publisher", "tenant:" + TENANT, "audit.view")).isEqualTo(201);
    String erinAgain = Auth.serviceToken(TENANT, OidcProvider.token(IDP, "erin", Map.of()), "{}");
    assertThat(audit(erinAgain, "limit=1").status()).isEqualTo(200);
    assertThat(audit(null, "").status()).isEqualTo(401);
  }

  @Test
  void recordsOlderThanTheRetentionAreDeletedByTheLeaderAndNewerOnesKept() throws Exception {
    String insert =
        "INSERT INTO audit_records (at, event_type, operation, action, result, principal,"
            + " principal_type, tenant, resource) VALUES (now() - make_interval(days => ?),"
            + " 'metadata', 'tenant.update', 'update', 'success', 'someone', 'user', ?, ?)";
    try (Connection c = TestDatabase.connect();
        PreparedStatement ps = c.prepareStatement(insert)) {
      for (int days : new int[] {91, 89}) {
        ps.setInt(1, days);
        ps.setString(2, TENANT);
        ps.setString(3, "retention:" + days);
        ps.executeUpdate();
      }
    }
    // The shared server checks retention every second; the default keeps 90 days.
    String count = "SELECT count(*) FROM audit_records WHERE resource = 'retention:";
    Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
    while (TestDatabase.queryLong(count + "91'") > 0 && Instant.now().isBefore(deadline)) {
      Thread.sleep(250);
    }
    assertThat(TestDatabase.queryLong(count + "91'")).isZero();
    assertThat(TestDatabase.queryLong(count + "89'")).isEqualTo(1);
  }

  @Test
  void theOperatorReadsEveryRecordIncludingThoseOfNoTenant() {
    Http operator = new Http(SharedServer.httpPort(), SharedServer.OPERATOR_TOKEN);
    Http.Reply brokers = operator.get("/v1/audit?operation=broker.register&limit=1000");
    assertThat(brokers.status()).as(brokers.body()).isEqualTo(200);
    assertThat(brokers.json().path("records").findValuesAsText("resource"))
        .contains("broker:audit-broker");
    Http.Reply mine =
        operator.get("/v1/audit?tenant=" + TENANT + "&operation=bootstrap.initialize");
    assertThat(mine.json().path("records")).hasSize(1);
    assertThat(mine.json().path("records").get(0).path("tenant").asText()).isEqualTo(TENANT);

    Http.Reply tenantToken = new Http(SharedServer.httpPort(), alice).get("/v1/audit");
    assertThat(tenantToken.status()).isEqualTo(403);
    assertThat(tenantToken.json().path("code").asText()).isEqualTo("forbidden");
    Http broker = new Http(SharedServer.httpPort(), SharedServer.BROKER_TOKEN);
    assertThat(broker.get("/v1/audit").status()).isEqualTo(403);
    assertThat(new Http(SharedServer.httpPort(), null).get("/v1/audit").status()).isEqualTo(401);
    assertThat(operator.get("/v1/audit?tenant=Not%20A%20Name").status()).isEqualTo(400);
  }

  /**
   * Malformed, and also well formed but beyond what the database can compare (a year past 9999, a
   * NUL): the client's mistake, never "the database is unavailable".
   */
  @Test
  void aMalformedFilterIsAValidationProblem() {
    for (String query :
        List.of(
            "since=yesterday",
            "until=2026-13-01T00:00:00Z",
            "page_token=!!",
            "since=%2B300000-01-01T00:00:00Z",
            "until=-5000-01-01T00:00:00Z",
            "principal=%00",
            "operation=a%00",
            "page_token=AA")) {
      Http.Reply reply = audit(alice, query);
      assertThat(reply.status()).as(query).isEqualTo(400);
      assertThat(reply.contentType()).startsWith("application/problem+json");
      assertThat(reply.json().path("code").asText()).isEqualTo("validation_failed");
    }
  }

  @Test
  void everyRecordIsAlsoAJsonLineOnTheAuditLogger() throws Exception {
    String key = "namespace:" + TENANT + "/logged";
    assertThat(asAlice().put(ns("logged"), Http.namespace(TENANT, "logged", "")).status())
        .isEqualTo(201);
    long id = only("namespace.create", key).path("id").asLong();
    String log = SharedServer.process().logText();
    List<JsonNode> lines = new ArrayList<>();
    for (String line : log.split("\n")) {
      int start = line.indexOf("{\"timestamp\"");
      if (start >= 0 && line.contains(key)) {
        lines.add(Http.JSON.readTree(line.substring(start)));
      }
    }
    assertThat(lines).as("JSON lines naming %s (record %d)", key, id).hasSize(1);
    JsonNode line = lines.get(0);
    assertThat(line.path("operation").asText()).isEqualTo("namespace.create");
    assertThat(line.path("principal").asText()).isEqualTo(aliceId);
    assertThat(line.path("source_ip").asText()).isEqualTo("127.0.0.1");
  }
}
