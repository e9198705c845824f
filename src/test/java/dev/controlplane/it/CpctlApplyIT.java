package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.controlplane.it.support.CpctlRunner;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.LiveBrokers;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.TestDatabase;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cpctl apply}, {@code get}, {@code describe} and {@code delete}, run as the packaged JAR
 * against the shared server: every outcome of an apply and its exit code, server dry runs, pruning,
 * table and YAML output, and YAML that apply takes back.
 */
class CpctlApplyIT {

  private static LiveBrokers brokers;
  @TempDir static Path home;
  private static CpctlRunner cpctl;
  private final Http http = Http.shared();

  @BeforeAll
  static void start() throws Exception {
    SharedServer.ensureStarted();
    brokers = new LiveBrokers("cli-a", "cli-b");
    cpctl = CpctlRunner.forSharedServer(home);
  }

  @AfterAll
  static void stop() throws Exception {
    brokers.close();
  }

  private static String tenant(String name, String description) {
    return "apiVersion: controlplane/v1\nkind: Tenant\nmetadata: {name: "
        + name
        + "}\nspec: {description: "
        + description
        + "}\n";
  }

  private static String namespace(String tenant, String name, String description) {
    return "apiVersion: controlplane/v1\nkind: Namespace\nmetadata: {name: "
        + name
        + ", tenant: "
        + tenant
        + "}\nspec: {description: "
        + description
        + "}\n";
  }

  private static String stream(
      String tenant, String ns, String name, int shards, String extraMetadata) {
    return "apiVersion: controlplane/v1\nkind: Stream\nmetadata: {name: "
        + name
        + ", tenant: "
        + tenant
        + ", namespace: "
        + ns
        + extraMetadata
        + "}\nspec: {shards: "
        + shards
        + ", retention: {time: 7d}}\n";
  }

  private static String docs(String... docs) {
    return String.join("---\n", docs);
  }

  @Test
  void applyReportsEveryOutcomeOfAMultiDocumentFileAndExitsNonZeroWhenAnyObjectFailed()
      throws Exception {
    String first =
        cpctl.file(
            "first.yaml",
            docs(
                stream("ap", "ns", "s1", 2, ""),
                namespace("ap", "ns", "first"),
                tenant("ap", "apply test"),
                stream("ap", "ns", "s2", 1, "")));
    var created = cpctl.run("apply", "-f", first);
    assertThat(created.exit()).as(created.toString()).isZero();
    assertThat(created.lines())
        .as("dependency order: the tenant, the namespace, then the streams in file order")
        .containsExactly(
            "tenant/ap created",
            "namespace/ap/ns created",
            "stream/ap/ns/s1 created",
            "stream/ap/ns/s2 created");
    long s1 = http.get("/v1/tenants/ap/namespaces/ns/streams/s1").version();

    String second =
        cpctl.file(
            "second.yaml",
            docs(
                tenant("ap", "apply test"),
                namespace("ap", "ns", "second"),
                stream("ap", "ns", "s1", 2, ", version: " + (s1 - 1)),
                stream("ap", "ns", "bad", 0, ""),
                stream("ap", "ns", "s2", 1, ""),
                namespace("nosuchtenant", "ns", "x"),
                stream("nosuchtenant", "ns", "s", 1, ""),
                "kind: Gadget\nmetadata: {name: g}\n"));
    var mixed = cpctl.run("apply", "-f", second);
    assertThat(mixed.exit()).as(mixed.toString()).isEqualTo(1);
    assertThat(mixed.lines())
        .containsExactly(
            second
                + "#8 invalid: kind Gadget is not one apply writes (Tenant, Namespace, Stream, Broker)",
            "tenant/ap unchanged",
            "namespace/ap/ns configured",
            "namespace/nosuchtenant/ns failed: not_found (404): tenant nosuchtenant does not exist",
            "stream/ap/ns/s1 conflict: the file has metadata.version "
                + (s1 - 1)
                + ", but it is at version "
                + s1
                + " (re-read it, or drop metadata.version)",
            "stream/ap/ns/bad invalid: validation_failed (400): spec.shards: must be between 1 and 1024",
            "stream/ap/ns/s2 unchanged",
            "stream/nosuchtenant/ns/s skipped: namespace/nosuchtenant/ns was not applied");
    assertThat(mixed.err())
        .contains(
            "8 objects: 1 configured, 2 unchanged, 1 conflict, 2 invalid, 1 failed, 1 skipped");
    assertThat(
            http.get("/v1/tenants/ap/namespaces/ns")
                .json()
                .path("spec")
                .path("description")
                .asText())
        .isEqualTo("second");
    assertThat(http.get("/v1/tenants/ap/namespaces/ns/streams/s1").version())
        .as("a conflict is not overwritten")
        .isEqualTo(s1);

    var fromStdin = cpctl.pipe(namespace("ap", "ns", "second"), "apply", "-f", "-");
    assertThat(fromStdin.lines()).containsExactly("namespace/ap/ns unchanged");
    var unparseable = cpctl.pipe("kind: [\n", "apply", "-f", "-");
    assertThat(unparseable.exit()).isEqualTo(2);
    assertThat(unparseable.err()).contains("error: <stdin>: document 1 does not parse");
  }

  @Test
  void aServerDryRunShowsWhatWouldChangeAndChangesNothing() throws Exception {
    cpctl.run(
        "apply",
        "-f",
        cpctl.file(
            "dry-base.yaml",
            docs(tenant("dryapply", "base"), namespace("dryapply", "ns", "before"))));
    long head = TestDatabase.headVersion();
    String file =
        cpctl.file(
            "dry.yaml",
            docs(
                namespace("dryapply", "ns", "after"),
                tenant("drynew", "new"),
                namespace("drynew", "ns", "n"),
                stream("dryapply", "ns", "s", 1, ""),
                stream("dryapply", "ns", "wide", 1, "")
                    .replace("shards: 1", "shards: 1, replication_factor: 16")));
    var dry = cpctl.run("apply", "-f", file, "--dry-run=server");
    assertThat(dry.exit()).as(dry.toString()).isEqualTo(1);
    assertThat(dry.lines())
        .containsExactly(
            "tenant/drynew created (server dry run)",
            "namespace/dryapply/ns configured (server dry run)",
            "  spec.description: before -> after",
            "namespace/drynew/ns created (server dry run) (not checked by the server: tenant/drynew does not exist yet)",
            "stream/dryapply/ns/s created (server dry run)",
            "stream/dryapply/ns/wide failed (server dry run): conflict (409): "
                + failureOf("wide"));
    assertThat(TestDatabase.headVersion()).as("nothing was written").isEqualTo(head);
    assertThat(http.get("/v1/tenants/drynew").status()).isEqualTo(404);
    assertThat(
            http.get("/v1/tenants/dryapply/namespaces/ns")
                .json()
                .path("spec")
                .path("description")
                .asText())
        .isEqualTo("before");
  }

  /** The server's own words for a stream it cannot place, from a real (refused) write. */
  private String failureOf(String stream) {
    var refused =
        http.put(
            "/v1/tenants/dryapply/namespaces/ns/streams/" + stream + "?dryRun=All",
            Http.stream("dryapply", "ns", stream, 1, 16));
    return refused.json().path("detail").asText();
  }

  @Test
  void getPrintsATableAndYamlThatApplyTakesBackUnchanged() throws Exception {
    cpctl.run(
        "apply",
        "-f",
        cpctl.file(
            "get.yaml",
            docs(
                tenant("getco", "get test"),
                namespace("getco", "pay", "payments"),
                stream("getco", "pay", "orders", 3, ""),
                stream("getco", "pay", "refunds", 1, ""))));
    var table = cpctl.run("get", "streams", "-t", "getco", "-n", "pay");
    assertThat(table.exit()).isZero();
    List<String> lines = table.lines();
    assertThat(lines.get(0))
        .matches("TENANT +NAMESPACE +NAME +SHARDS +RF +RETENTION +STATE +VERSION");
    assertThat(lines.get(1)).matches("getco +pay +orders +3 +1 +7d +active +\\d+");
    assertThat(lines.get(2)).matches("getco +pay +refunds +1 +1 +7d +active +\\d+");
    assertThat(lines).hasSize(3);

    var yaml = cpctl.run("get", "streams", "-t", "getco", "-n", "pay", "-o", "yaml");
    assertThat(yaml.out())
        .startsWith("apiVersion: controlplane/v1\nkind: List\nitems:\n")
        .contains("name: orders")
        .contains("shards: 3");
    var back = cpctl.pipe(yaml.out(), "apply", "-f", "-");
    assertThat(back.lines())
        .containsExactly("stream/getco/pay/orders unchanged", "stream/getco/pay/refunds unchanged");

    var one = cpctl.run("get", "stream", "orders", "-t", "getco", "-n", "pay", "-o", "json");
    JsonNode doc = Http.JSON.readTree(one.out());
    assertThat(doc.path("kind").asText()).isEqualTo("Stream");
    assertThat(doc.path("spec").path("shards").asInt()).isEqualTo(3);

    var missing = cpctl.run("get", "stream", "nope", "-t", "getco", "-n", "pay");
    assertThat(missing.exit()).isEqualTo(1);
    assertThat(missing.err()).contains("error: stream/getco/pay/nope: not_found (404)");
    assertThat(cpctl.run("get", "streams", "-t", "getco").out())
        .as("every namespace of the tenant")
        .contains("orders")
        .contains("refunds");
    assertThat(cpctl.run("get", "placements", "-t", "getco", "-n", "pay").lines()).hasSize(3);
  }

  @Test
  void listsArePagedThroughForTheUser() {
    String many =
        docs(
            IntStream.range(0, 25)
                .mapToObj(i -> namespace("pagedco", String.format("ns-%02d", i), "n"))
                .toArray(String[]::new));
    cpctl.run("apply", "-f", cpctl.file("paged.yaml", docs(tenant("pagedco", "p"), many)));
    var names = cpctl.run("get", "namespaces", "-t", "pagedco", "--chunk-size", "7", "-o", "name");
    assertThat(names.lines())
        .containsExactlyElementsOf(
            IntStream.range(0, 25)
                .mapToObj(i -> String.format("namespace/pagedco/ns-%02d", i))
                .toList());
  }

  @Test
  void aLongApplyShowsProgressAndPruneDeletesOnlyWhatTheFilesNoLongerNameWhenAsked() {
    List<String> all =
        IntStream.range(0, 40).mapToObj(i -> namespace("pruneco", "ns-" + i, "n")).toList();
    var applied =
        cpctl.run(
            "apply",
            "-f",
            cpctl.file(
                "prune-all.yaml", docs(tenant("pruneco", "p"), docs(all.toArray(String[]::new)))),
            "--progress=always");
    assertThat(applied.exit()).isZero();
    assertThat(applied.err())
        .contains("apply: 21/41 (51%)")
        .containsPattern("apply: 41/41 \\(100%\\), [0-9.]+s, \\d+/s");

    String fewer =
        cpctl.file(
            "prune-fewer.yaml",
            docs(tenant("pruneco", "p"), docs(all.subList(0, 30).toArray(String[]::new))));
    var kept = cpctl.run("apply", "-f", fewer);
    assertThat(kept.out()).doesNotContain("pruned");
    assertThat(http.get("/v1/tenants/pruneco/namespaces/ns-35").status())
        .as("prune is off by default")
        .isEqualTo(200);

    var dryPrune = cpctl.run("apply", "-f", fewer, "--prune", "--dry-run");
    assertThat(dryPrune.out()).contains("namespace/pruneco/ns-35 pruned (server dry run)");
    assertThat(http.get("/v1/tenants/pruneco/namespaces/ns-35").status()).isEqualTo(200);

    var pruned = cpctl.run("apply", "-f", fewer, "--prune");
    assertThat(pruned.exit()).as(pruned.toString()).isZero();
    assertThat(pruned.lines().stream().filter(l -> l.endsWith(" pruned"))).hasSize(10);
    assertThat(http.get("/v1/tenants/pruneco/namespaces/ns-35").status()).isEqualTo(404);
    assertThat(http.get("/v1/tenants/pruneco/namespaces/ns-5").status()).isEqualTo(200);
  }

  @Test
  void describeShowsThePlacementAndDeleteWorksByNameAndFromAFile() throws Exception {
    String file =
        cpctl.file(
            "del.yaml",
            docs(
                tenant("delco", "d"),
                namespace("delco", "ns", "n"),
                stream("delco", "ns", "s", 2, "")));
    cpctl.run("apply", "-f", file);
    var described = cpctl.run("describe", "stream", "s", "-t", "delco", "-n", "ns");
    assertThat(described.out())
        .contains("Kind:       Stream")
        .contains("State:      active")
        .contains("Placement (version")
        .containsPattern("(?m)^  SHARD +LEADER +REPLICAS$")
        .containsPattern("(?m)^  1 +\\S+ +\\S+$");
    assertThat(cpctl.run("describe", "tenant", "delco").out())
        .as("a tenant created through the API has its signing key from the start")
        .containsPattern("(?m)^Signing keys:\\n(.*\\n)*  \\S+ +active\\b");
    var asYaml = cpctl.run("describe", "tenant", "delco", "-o", "yaml");
    assertThat(asYaml.out()).contains("object:").contains("namespaces:").contains("signing_keys:");

    var dry = cpctl.run("delete", "stream", "s", "-t", "delco", "-n", "ns", "--dry-run=server");
    assertThat(dry.lines()).containsExactly("stream/delco/ns/s deleted (server dry run)");
    assertThat(http.get("/v1/tenants/delco/namespaces/ns/streams/s").status()).isEqualTo(200);

    var notEmpty = cpctl.run("delete", "tenant", "delco");
    assertThat(notEmpty.exit()).isEqualTo(1);
    assertThat(notEmpty.out()).contains("tenant/delco failed: conflict (409)");

    var deleted = cpctl.run("delete", "stream", "s", "-t", "delco", "-n", "ns");
    assertThat(deleted.lines()).containsExactly("stream/delco/ns/s deleted");
    assertThat(cpctl.run("delete", "stream", "s", "-t", "delco", "-n", "ns").exit()).isEqualTo(1);
    assertThat(
            cpctl
                .run("delete", "stream", "s", "-t", "delco", "-n", "ns", "--ignore-not-found")
                .exit())
        .isZero();

    String other =
        cpctl.file(
            "del2.yaml",
            docs(
                tenant("delco2", "d"),
                namespace("delco2", "a", "n"),
                namespace("delco2", "b", "n")));
    cpctl.run("apply", "-f", other);
    var fromFile = cpctl.run("delete", "-f", other);
    assertThat(fromFile.exit()).as(fromFile.toString()).isZero();
    assertThat(fromFile.lines())
        .containsExactly(
            "namespace/delco2/a deleted", "namespace/delco2/b deleted", "tenant/delco2 deleted");
  }

  /**
   * A bridge written before its stream in the file is applied after it, listed, and deleted first
   * from the same file: the server refuses to delete a stream a bridge names.
   */
  @Test
  void aBridgeIsAppliedAfterTheStreamsItNamesAndDeletedBeforeThem() throws Exception {
    String bridge =
        "apiVersion: controlplane/v1\nkind: Bridge\nmetadata: {name: cli-bridge}\nspec:"
            + " {source_region: eu, target_region: us, streams: [{tenant: bridgeco, namespace:"
            + " ns, stream: s}]}\n";
    String file =
        cpctl.file(
            "bridge.yaml",
            docs(
                bridge,
                tenant("bridgeco", "b"),
                namespace("bridgeco", "ns", "n"),
                stream("bridgeco", "ns", "s", 1, "")));
    var applied = cpctl.run("apply", "-f", file);
    assertThat(applied.exit()).as(applied.toString()).isZero();
    assertThat(applied.lines())
        .containsExactly(
            "tenant/bridgeco created",
            "namespace/bridgeco/ns created",
            "stream/bridgeco/ns/s created",
            "bridge/cli-bridge created");
    var listed = cpctl.run("get", "bridges");
    assertThat(listed.out())
        .containsPattern("(?m)^NAME +SOURCE +TARGET +STREAMS +KEY-ID +VERSION$")
        .containsPattern("(?m)^cli-bridge +eu +us +1 +<none> +[0-9]+$");
    assertThat(cpctl.run("apply", "-f", file).lines()).contains("bridge/cli-bridge unchanged");

    var deleted = cpctl.run("delete", "-f", file);
    assertThat(deleted.exit()).as("the namespace and tenant wait: %s", deleted).isEqualTo(1);
    assertThat(deleted.lines())
        .containsExactly(
            "bridge/cli-bridge deleted",
            "stream/bridgeco/ns/s deleted",
            "namespace/bridgeco/ns failed: conflict (409): namespace bridgeco/ns still has 1"
                + " stream(s), including deleted ones awaiting purge; delete them first",
            "tenant/bridgeco failed: conflict (409): tenant bridgeco still has 1 namespace(s);"
                + " delete them first");
  }

  @Test
  void aBrokersStatusIsAppliedThroughTheAdminApi() throws Exception {
    String draining =
        "apiVersion: controlplane/v1\nkind: Broker\nmetadata: {name: cli-b}\nspec: {status: draining}\n";
    try {
      var dry = cpctl.pipe(draining, "apply", "-f", "-", "--dry-run");
      assertThat(dry.lines())
          .containsExactly(
              "broker/cli-b configured (server dry run)", "  spec.status: active -> draining");
      assertThat(http.get("/v1/brokers/cli-b").json().path("spec").path("status").asText())
          .isEqualTo("active");
      assertThat(cpctl.pipe(draining, "apply", "-f", "-").lines())
          .containsExactly("broker/cli-b configured");
      assertThat(cpctl.run("get", "broker", "cli-b").out())
          .containsPattern("cli-b +127.0.0.1:7401 +<none> +zone-1 +draining");
      assertThat(cpctl.pipe(draining, "apply", "-f", "-").lines())
          .containsExactly("broker/cli-b unchanged");
      var bad = cpctl.pipe(draining.replace("draining", "down"), "apply", "-f", "-");
      assertThat(bad.out())
          .contains(
              "broker/cli-b invalid: spec.status down is set by failure detection only; broker"
                  + " cli-b is draining");
    } finally {
      assertThat(cpctl.pipe(draining.replace("draining", "active"), "apply", "-f", "-").lines())
          .containsExactly("broker/cli-b configured");
    }
  }

  /**
   * docs/cli.md: {@code cpctl get brokers -o yaml | cpctl apply -f -} changes nothing, a broker
   * that failure detection marked down included (apply refused its status before).
   */
  @Test
  void aDownBrokerPrintedByGetIsAppliedBackUnchanged() throws Exception {
    new LiveBrokers("cli-gone").close(); // registered, then silent until marked down
    var printed = cpctl.run("get", "broker", "cli-gone", "-o", "yaml");
    assertThat(printed.exit()).as(printed.toString()).isZero();
    assertThat(printed.out()).contains("status: down");
    var applied = cpctl.pipe(printed.out(), "apply", "-f", "-");
    assertThat(applied.exit()).as(applied.toString()).isZero();
    assertThat(applied.lines()).containsExactly("broker/cli-gone unchanged");
  }
}
