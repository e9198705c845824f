package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.controlplane.it.support.Auth;
import dev.controlplane.it.support.CpctlRunner;
import dev.controlplane.it.support.Grpc;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.LiveBrokers;
import dev.controlplane.it.support.OidcProvider;
import dev.controlplane.it.support.Ports;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.TestDatabase;
import dev.controlplane.proto.v1.BrokerCapacity;
import dev.controlplane.proto.v1.RegisterBrokerRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * cpctl's administration commands as the packaged JAR against the shared server and a real OIDC
 * provider: token exchange and contexts that use tenant tokens, RBAC, issuers, signing keys,
 * streams and rebalancing, brokers, watch, snapshot, cluster status, completion.
 */
class CpctlAdminIT {

  private static final String TENANT = "clitenant";
  private static final String IDP = "idp-cli";
  private static LiveBrokers brokers;
  @TempDir static Path home;
  private static CpctlRunner cpctl;
  private final Http http = Http.shared();

  @BeforeAll
  static void start() throws Exception {
    SharedServer.ensureStarted();
    brokers = new LiveBrokers("adm-cli-a", "adm-cli-b", "adm-cli-c");
    cpctl = CpctlRunner.forSharedServer(home);
    Auth.bootstrap(TENANT, IDP, null, "alice");
  }

  @AfterAll
  static void stop() throws Exception {
    brokers.close();
  }

  private static String namespace(String name) {
    return "apiVersion: controlplane/v1\nkind: Namespace\nmetadata: {name: "
        + name
        + ", tenant: "
        + TENANT
        + "}\n";
  }

  /** A runner of its own whose context authenticates with alice's upstream token only. */
  private static CpctlRunner alice(Path dir, String upstreamFile) {
    CpctlRunner alice = new CpctlRunner(dir);
    var created =
        alice.run(
            "config",
            "set-context",
            "alice",
            "--server",
            "http://127.0.0.1:" + SharedServer.httpPort(),
            "--grpc-server",
            "127.0.0.1:" + SharedServer.grpcPort(),
            "--tenant",
            TENANT,
            "--token-command",
            "cat " + upstreamFile);
    assertThat(created.exit()).as(created.toString()).isZero();
    return alice;
  }

  @Test
  void tokenExchangePrintsOrStoresAServiceTokenAndAContextCanRunOnTenantTokens(
      @TempDir Path aliceHome) {
    String upstream = cpctl.file("alice.jwt", OidcProvider.token(IDP, "alice", Map.of()));
    var printed = cpctl.run("token", "exchange", "-t", TENANT, "--upstream-token-file", upstream);
    assertThat(printed.exit()).as(printed.toString()).isZero();
    assertThat(printed.out()).matches("[\\w-]+\\.[\\w-]+\\.[\\w-]+\n");
    var json =
        cpctl.run(
            "token",
            "exchange",
            "-t",
            TENANT,
            "--upstream-token-file",
            upstream,
            "--requested",
            "stream.publish",
            "--resources",
            "stream:" + TENANT + "/team/*",
            "-o",
            "json");
    assertThat(json.out()).contains("\"token_type\" : \"Bearer\"").contains("\"expires_in\"");

    CpctlRunner alice = alice(aliceHome, upstream);
    var applied = alice.pipe(namespace("team"), "apply", "-f", "-");
    assertThat(applied.lines())
        .as(applied.toString())
        .containsExactly("namespace/clitenant/team created");
    var everyTenant = alice.run("get", "tenants");
    assertThat(everyTenant.exit()).isEqualTo(1);
    assertThat(everyTenant.err()).contains("error: forbidden (403)");

    var stored = alice.run("token", "exchange", "--store");
    assertThat(stored.out())
        .startsWith("service token of tenant clitenant stored in context alice (expires in ");
    assertThat(alice.run("config", "view").out())
        .contains("service-token: REDACTED")
        .contains("service-token-tenant: clitenant");
    alice.run("config", "set-context", "alice", "--token-command", "false");
    var withStored = alice.run("get", "namespaces");
    assertThat(withStored.exit())
        .as("the stored token serves, the failing command is not run")
        .isZero();
    assertThat(withStored.out()).contains("team");
  }

  @Test
  void rbacPoliciesAndGroupingsAreGrantedListedAndRevoked() throws Exception {
    String[] policy = {
      "--subject",
      "role:reader",
      "--object",
      "stream:clitenant/team/*",
      "--action",
      "stream.subscribe"
    };
    var granted = cpctl.run(concat(List.of("rbac", "policies", "grant", "-t", TENANT), policy));
    assertThat(granted.lines())
        .as(granted.toString())
        .containsExactly("policy role:reader stream:clitenant/team/* stream.subscribe granted");
    assertThat(
            cpctl.run(concat(List.of("rbac", "policies", "grant", "-t", TENANT), policy)).lines())
        .containsExactly(
            "policy role:reader stream:clitenant/team/* stream.subscribe already granted");
    assertThat(cpctl.run("rbac", "policies", "list", "-t", TENANT).out())
        .containsPattern("(?m)^SUBJECT +OBJECT +ACTION$")
        .containsPattern("(?m)^role:reader +stream:clitenant/team/\\* +stream.subscribe$");

    var grouping =
        cpctl.run(
            "rbac",
            "groupings",
            "grant",
            "-t",
            TENANT,
            "--principal",
            "group:readers",
            "--role",
            "role:reader");
    assertThat(grouping.lines()).containsExactly("grouping group:readers role:reader granted");
    JsonNode groupings =
        Http.JSON.readTree(
            cpctl.run("rbac", "groupings", "list", "-t", TENANT, "-o", "json").out());
    assertThat(groupings.path("groupings").toString()).contains("group:readers");

    assertThat(
            cpctl
                .run(
                    "rbac",
                    "groupings",
                    "revoke",
                    "-t",
                    TENANT,
                    "--principal",
                    "group:readers",
                    "--role",
                    "role:reader")
                .lines())
        .containsExactly("grouping group:readers role:reader revoked");
    assertThat(
            cpctl.run(concat(List.of("rbac", "policies", "revoke", "-t", TENANT), policy)).exit())
        .isZero();
    assertThat(cpctl.run("rbac", "policies", "list", "-t", TENANT).out())
        .doesNotContain("role:reader");
    assertThat(cpctl.run("rbac", "groupings", "list", "-t", TENANT).out())
        .doesNotContain("group:readers");

    var incomplete = cpctl.run("rbac", "policies", "grant", "-t", TENANT, "--subject", "role:x");
    assertThat(incomplete.exit()).isEqualTo(2);
    assertThat(incomplete.err()).contains("policies take --subject, --object, --action");
  }

  private static String[] concat(List<String> head, String[] tail) {
    List<String> all = new java.util.ArrayList<>(head);
    all.addAll(List.of(tail));
    return all.toArray(String[]::new);
  }

  @Test
  void issuersAreListedSetAndDeleted() {
    assertThat(cpctl.run("issuers", "list", "-t", TENANT).out()).contains(OidcProvider.issuer(IDP));
    String other = OidcProvider.issuer("idp-cli-2");
    String[] set = {
      "issuers",
      "set",
      other,
      "-t",
      TENANT,
      "--audience",
      OidcProvider.AUDIENCE,
      "--jwks-url",
      OidcProvider.jwksUrl("idp-cli-2"),
      "--groups-claim",
      "groups"
    };
    assertThat(cpctl.run(set).lines()).containsExactly("issuer " + other + " created");
    assertThat(cpctl.run(set).lines()).containsExactly("issuer " + other + " updated");
    assertThat(cpctl.run("issuers", "list", "-t", TENANT).out())
        .containsPattern(
            java.util.regex.Pattern.quote(other) + " +controlplane +\\S+ +sub +groups");
    assertThat(cpctl.run("issuers", "delete", other, "-t", TENANT).lines())
        .containsExactly("issuer " + other + " deleted");
    var again = cpctl.run("issuers", "delete", other, "-t", TENANT);
    assertThat(again.exit()).isEqualTo(1);
    assertThat(again.err()).contains("error: not_found (404)");
    var neither = cpctl.run("issuers", "set", other, "-t", TENANT, "--audience", "a");
    assertThat(neither.exit()).isEqualTo(2);
  }

  @Test
  void signingKeysAreListedAndRotated() {
    assertThat(cpctl.run("keys", "list", "-t", TENANT).out())
        .containsPattern("(?m)^KID +STATE +ACTIVATE-AFTER +RETIRE-AFTER$")
        .containsPattern("(?m)^\\S+ +active ");
    var rotated = cpctl.run("keys", "rotate", "-t", TENANT);
    Matcher published =
        Pattern.compile("key (\\S+) published as next; it signs from (\\S+)\n")
            .matcher(rotated.out());
    assertThat(published.matches()).as(rotated.out()).isTrue();
    String list = cpctl.run("keys", "list", "-t", TENANT).out();
    // It is next until it signs (JWKS_MAX_AGE, 2 s, after the rotation), then the rotation duty
    // makes it active. Only a list that ended before that time must show next: one that started
    // before it (cpctl's JVM takes seconds to start on a loaded machine) may see either.
    Instant listed = Instant.now();
    String states = listed.isBefore(Instant.parse(published.group(2))) ? "next" : "(next|active)";
    assertThat(list)
        .containsPattern("(?m)^" + Pattern.quote(published.group(1)) + " +" + states + " ");
  }

  @Test
  void theAuditLogShowsWhoDidWhatNewestFirstFilteredByOperationAndTime() throws Exception {
    String issuer = "https://audit-cli.example/" + System.nanoTime();
    var set =
        cpctl.run(
            "issuers",
            "set",
            issuer,
            "-t",
            TENANT,
            "--audience",
            "cli-audit",
            "--jwks-url",
            OidcProvider.jwksUrl("idp-cli-2"));
    assertThat(set.exit()).as(set.toString()).isZero();
    assertThat(cpctl.run("issuers", "delete", issuer, "-t", TENANT).exit()).isZero();

    var json =
        cpctl.run(
            "audit", "-t", TENANT, "--since", "10m", "--operation", "issuer.delete", "-o", "json");
    assertThat(json.exit()).as(json.toString()).isZero();
    JsonNode records = new ObjectMapper().readTree(json.out()).path("records");
    assertThat(records).isNotEmpty();
    JsonNode newest = records.get(0);
    assertThat(newest.path("operation").asText()).isEqualTo("issuer.delete");
    assertThat(newest.path("resource").asText()).isEqualTo("issuer:" + issuer);
    assertThat(newest.path("principal").asText()).isEqualTo("operator");
    records.forEach(r -> assertThat(r.path("tenant").asText()).isEqualTo(TENANT));

    var table = cpctl.run("audit", "-t", TENANT, "--since", "10m", "--limit", "2");
    assertThat(table.out())
        .containsPattern("(?m)^TIME +PRINCIPAL +OPERATION +RESOURCE +RESULT +VERSION$")
        .contains("issuer.delete")
        .contains("issuer:" + issuer);
    assertThat(table.lines()).hasSize(3);

    var everyTenant = cpctl.run("audit", "--all-tenants", "--operation", "issuer.create");
    assertThat(everyTenant.out())
        .containsPattern("(?m)^TIME +TENANT +PRINCIPAL +OPERATION +RESOURCE +RESULT +VERSION$")
        .contains("issuer:" + issuer);

    var future = cpctl.run("audit", "-t", TENANT, "--since", "2999-01-01T00:00:00Z");
    assertThat(future.exit()).isZero();
    assertThat(future.err()).contains("No audit record found.");
  }

  @Test
  void streamsAreCreatedListedDeletedRestoredAndRebalancedAwayFromADrainedBroker()
      throws Exception {
    cpctl.pipe(namespace("ops"), "apply", "-f", "-");
    String[] scope = {"-t", TENANT, "-n", "ops"};
    var created =
        cpctl.run(
            concat(
                List.of(
                    "streams",
                    "create",
                    "orders",
                    "--shards",
                    "6",
                    "--replication-factor",
                    "2",
                    "--retention-time",
                    "1d"),
                scope));
    assertThat(created.lines())
        .as(created.toString())
        .containsExactly("stream/clitenant/ops/orders created");
    assertThat(cpctl.run(concat(List.of("streams", "list"), scope)).out())
        .containsPattern("(?m)^ops +orders +6 +2 +0 +0.0 +0 +0 +0$");

    Instant beforeDelete = Instant.now();
    String deleted = cpctl.run(concat(List.of("streams", "delete", "orders"), scope)).out();
    Matcher until =
        Pattern.compile(
                "stream/clitenant/ops/orders deleted at version \\d+ \\(restorable until (\\S+)\\)\n")
            .matcher(deleted);
    assertThat(until.matches()).as(deleted).isTrue();
    assertThat(Instant.parse(until.group(1)))
        .as("the end of the server's grace period for deleted streams")
        .isBetween(
            beforeDelete.plus(SharedServer.DELETE_GRACE).minusSeconds(1),
            Instant.now().plus(SharedServer.DELETE_GRACE).plusSeconds(1));
    assertThat(http.get("/v1/tenants/clitenant/namespaces/ops/streams/orders").status())
        .isEqualTo(404);
    assertThat(cpctl.run(concat(List.of("streams", "restore", "orders"), scope)).out())
        .matches("stream/clitenant/ops/orders restored at version \\d+\n");
    assertThat(http.get("/v1/tenants/clitenant/namespaces/ops/streams/orders").status())
        .isEqualTo(200);

    var dryDrain = cpctl.run("brokers", "drain", "adm-cli-c", "--dry-run");
    assertThat(dryDrain.out())
        .matches("broker/adm-cli-c draining \\(version \\d+\\) \\(server dry run\\)\n");
    assertThat(cpctl.run("brokers", "list").out())
        .containsPattern("adm-cli-c +\\S+ +<none> +zone-2 +active");
    assertThat(cpctl.run("brokers", "drain", "adm-cli-c").out())
        .startsWith("broker/adm-cli-c draining");
    try {
      boolean heldReplicas = replicas().contains("adm-cli-c");
      var plan =
          cpctl.run(
              concat(
                  List.of("streams", "rebalance", "--strategy", "minimize-movement", "--dry-run"),
                  scope));
      assertThat(plan.exit()).as(plan.toString()).isZero();
      assertThat(plan.out())
          .contains("Movement cost: ")
          .containsPattern("Status: (PLANNED|NOOP) at version \\d+ \\(dry run: nothing changed\\)");
      if (heldReplicas) {
        assertThat(plan.out())
            .containsPattern("(?m)^STREAM +SHARD +FROM +TO +MOVE$")
            .containsPattern("clitenant/ops/orders +\\d+ +adm-cli-c +\\S+ +replica");
        assertThat(plan.out())
            .containsPattern("(?m)^BROKER +REPLICAS-IN +REPLICAS-OUT +LEADERS-IN +LEADERS-OUT$");
        assertThat(replicas()).as("a dry run moves nothing").contains("adm-cli-c");
      }
      var applied =
          cpctl.run(
              concat(
                  List.of(
                      "streams",
                      "rebalance",
                      "--strategy",
                      "minimize-movement",
                      "--summary",
                      "-o",
                      "json"),
                  scope));
      JsonNode result = Http.JSON.readTree(applied.out());
      assertThat(result.path("status").asText())
          .isIn("REBALANCE_STATUS_APPLIED", "REBALANCE_STATUS_NOOP");
      assertThat(replicas()).doesNotContain("adm-cli-c");
      var cluster =
          cpctl.run("streams", "rebalance", "--all", "--dry-run", "--summary", "--progress=always");
      assertThat(cluster.exit()).as(cluster.toString()).isZero();
      assertThat(cluster.err()).contains("rebalance cluster (BALANCED): ");
    } finally {
      assertThat(cpctl.run("brokers", "undrain", "adm-cli-c").out())
          .startsWith("broker/adm-cli-c active");
    }
  }

  private String replicas() {
    return http.get("/v1/tenants/clitenant/namespaces/ops/streams/orders/placement")
        .json()
        .path("spec")
        .toString();
  }

  @Test
  void aBrokerGoneForGoodIsDeletedOnceDownAndALiveOneIsRefusedWithTheReason() throws Exception {
    var live = cpctl.run("delete", "broker", "adm-cli-a");
    assertThat(live.exit()).as(live.toString()).isEqualTo(1);
    assertThat(live.out() + live.err()).contains("adm-cli-a").contains("marked down");

    try (Grpc grpc = Grpc.shared()) {
      // Registered, then silent: the server marks it down after three missed heartbeats.
      grpc.brokers()
          .registerBroker(
              RegisterBrokerRequest.newBuilder()
                  .setBrokerId("adm-cli-gone")
                  .setAddress("10.0.0.9:7000")
                  .setCapacity(BrokerCapacity.newBuilder().setMaxShards(10).setMaxConnections(10))
                  .build());
    }
    TestDatabase.awaitBrokersDown(List.of("adm-cli-gone"));
    var dry = cpctl.run("delete", "broker", "adm-cli-gone", "--dry-run=server");
    assertThat(dry.exit()).as(dry.toString()).isZero();
    assertThat(http.get("/v1/brokers/adm-cli-gone").status()).isEqualTo(200);

    var removed = cpctl.run("delete", "broker", "adm-cli-gone");
    assertThat(removed.exit()).as(removed.toString()).isZero();
    assertThat(removed.out()).startsWith("broker/adm-cli-gone deleted");
    assertThat(http.get("/v1/brokers/adm-cli-gone").status()).isEqualTo(404);
    assertThat(cpctl.run("brokers", "list").out()).doesNotContain("adm-cli-gone");
  }

  @Test
  void watchPrintsUpdatesAsTheyAreCommittedAndSnapshotSavesTheMetadata(@TempDir Path other)
      throws Exception {
    long head = TestDatabase.headVersion();
    Path out = home.resolve("watch.out");
    Process watch =
        cpctl.start(
            out,
            home.resolve("watch.err"),
            null,
            "watch",
            "--from-version",
            Long.toString(head),
            "--count",
            "2",
            "-o",
            "json",
            "-t",
            "watchco");
    cpctl.pipe(
        "apiVersion: controlplane/v1\nkind: Tenant\nmetadata: {name: watchco}\n---\napiVersion: controlplane/v1\nkind: Namespace\nmetadata: {name: n, tenant: watchco}\n",
        "apply",
        "-f",
        "-");
    assertThat(watch.waitFor(60, TimeUnit.SECONDS))
        .as("watch stops after --count updates")
        .isTrue();
    assertThat(watch.exitValue()).isZero();
    List<String> updates = Files.readAllLines(out);
    assertThat(updates).hasSize(2);
    assertThat(Http.JSON.readTree(updates.get(0)).path("tenant").path("name").asText())
        .isEqualTo("watchco");
    assertThat(Http.JSON.readTree(updates.get(1)).path("namespace").path("name").asText())
        .isEqualTo("n");

    var table =
        cpctl.run(
            "watch",
            "--from-version",
            Long.toString(head),
            "--count",
            "1",
            "-t",
            "watchco",
            "--kind",
            "tenants");
    assertThat(table.lines()).hasSize(2);
    assertThat(table.lines().get(0)).matches("VERSION +TYPE +KIND +NAME");
    assertThat(table.lines().get(1)).matches("\\d+ +CREATE +Tenant +watchco");

    CpctlRunner noBroker = new CpctlRunner(other).env("CPCTL_TOKEN", SharedServer.OPERATOR_TOKEN);
    var refused =
        noBroker.run(
            "watch", "--count", "1", "--grpc-server", "127.0.0.1:" + SharedServer.grpcPort());
    assertThat(refused.exit()).isEqualTo(1);
    assertThat(refused.err()).contains("UNAUTHENTICATED").contains("need the broker credential");

    String file = home.resolve("snap.json").toString();
    var saved = cpctl.run("snapshot", "save", file);
    assertThat(saved.exit()).as(saved.toString()).isZero();
    assertThat(saved.err())
        .containsPattern("snapshot at version \\d+: \\d+ tenants, \\d+ namespaces");
    JsonNode snapshot = Http.JSON.readTree(Path.of(file).toFile());
    assertThat(snapshot.path("version").asLong()).isGreaterThanOrEqualTo(head + 2);
    assertThat(snapshot.path("metadata").path("tenants").toString()).contains("\"watchco\"");
    assertThat(cpctl.run("snapshot", "status", file).out())
        .containsPattern(
            "(?m)^" + snapshot.path("version").asLong() + " +\\d+ +\\d+ +\\d+ +\\d+ +\\d+ +\\d+$");

    String old = home.resolve("old.yaml").toString();
    assertThat(cpctl.run("snapshot", "save", old, "--at-version", Long.toString(head)).exit())
        .isZero();
    String oldText = Files.readString(Path.of(old));
    assertThat(oldText).contains("version: " + head).doesNotContain("watchco");
  }

  @Test
  void clusterStatusAsksEveryServerOfTheContext() throws Exception {
    var single = cpctl.run("cluster", "status");
    assertThat(single.exit()).as(single.toString()).isZero();
    assertThat(single.lines().get(0))
        .matches("ENDPOINT +NODE +ROLE +LEADER +TERM +VERSION +COMMITTED +LAG +WATCHERS +ERROR");
    assertThat(single.lines().get(1))
        .matches("http://127.0.0.1:\\d+ +cp1 +leader +cp1 +\\d+ +\\d+ +\\d+ +\\d+ +\\d+ +<none>");

    String shared = "http://127.0.0.1:" + SharedServer.httpPort();
    String nobody = "http://127.0.0.1:" + Ports.free();
    var two = cpctl.run("cluster", "status", "-s", shared + "," + nobody, "-o", "json");
    assertThat(two.exit()).isEqualTo(1);
    assertThat(two.err()).contains("warning: 1 of 2 nodes did not answer");
    JsonNode nodes = Http.JSON.readTree(two.out());
    assertThat(nodes.get(0).path("role").asText()).isEqualTo("leader");
    assertThat(nodes.get(1).path("endpoint").asText()).isEqualTo(nobody);
    assertThat(nodes.get(1).path("error").asText()).isEqualTo("unreachable");
  }

  @Test
  void theJarCompletesShellsAndDocumentsItsCommands() {
    assertThat(cpctl.run("completion", "bash").out()).contains("complete -F").contains("rebalance");
    assertThat(cpctl.run("completion", "zsh").out()).startsWith("autoload -U +X compinit");
    for (String[] command :
        List.of(
            new String[] {"apply", "--help"},
            new String[] {"streams", "rebalance", "--help"},
            new String[] {"cluster", "status", "--help"})) {
      var help = cpctl.run(command);
      assertThat(help.exit()).isZero();
      assertThat(help.out()).contains("Usage: cpctl").contains("Examples:");
    }
    assertThat(cpctl.run("--version").out()).startsWith("cpctl 0.1.0");
  }
}
