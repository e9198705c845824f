package dev.controlplane.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.controlplane.cli.BaseCommand;
import dev.controlplane.cli.ExitCodes;
import dev.controlplane.cli.Session;
import dev.controlplane.cli.client.ApiClient;
import dev.controlplane.cli.client.ApiException;
import dev.controlplane.cli.option.KindCandidates;
import dev.controlplane.cli.option.OutputOption;
import dev.controlplane.cli.option.ScopeOptions;
import dev.controlplane.cli.output.OutputFormat;
import dev.controlplane.cli.output.Printer;
import dev.controlplane.cli.output.Table;
import dev.controlplane.cli.resource.Kind;
import dev.controlplane.cli.resource.Pager;
import dev.controlplane.cli.resource.Refs;
import dev.controlplane.cli.resource.ResourceRef;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code cpctl describe}: one object in detail, with what belongs to it. */
@Command(
    name = "describe",
    header = "Show one object in detail, with what belongs to it.",
    mixinStandardHelpOptions = true,
    description = {
      "Show one object in detail: its fields, and what belongs to it (a tenant's namespaces and"
          + " signing keys, a namespace's streams, a stream's placement shard by shard)."
          + " -o yaml or json prints the same as one document: {object, <related>}."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  cpctl describe tenant acme",
      "  cpctl describe stream orders -t acme -n payments",
      "  cpctl describe broker b1 -o yaml"
    })
public final class DescribeCommand extends BaseCommand {

  @Parameters(index = "0", paramLabel = "KIND", completionCandidates = KindCandidates.class)
  String kindWord;

  @Parameters(index = "1", paramLabel = "NAME")
  String name;

  @Mixin ScopeOptions scope;
  @Mixin OutputOption output;

  @Override
  protected int execute() {
    Session session = session();
    Kind kind = Kind.parse(kindWord);
    ResourceRef ref = Refs.named(session, kind, scope.tenant, scope.namespace, name);
    ObjectNode described = Printer.JSON.createObjectNode();
    described.set("object", get(session, ref.path(), ref.tenant()));
    switch (kind) {
      case TENANT -> {
        described.set(
            "namespaces", list(session, ResourceRef.listPath(Kind.NAMESPACE, name, ""), name));
        described.set("signing_keys", signingKeys(session, name));
      }
      case NAMESPACE ->
          described.set(
              "streams",
              list(session, ResourceRef.listPath(Kind.STREAM, ref.tenant(), name), ref.tenant()));
      case STREAM ->
          described.set(
              "placement",
              get(
                  session,
                  ResourceRef.of(Kind.PLACEMENT, ref.tenant(), ref.namespace(), name).path(),
                  ref.tenant()));
      default -> {}
    }
    if (output.format == OutputFormat.YAML || output.format == OutputFormat.JSON) {
      session.printer().document(described, output.format);
    } else {
      text(session.out(), kind, described);
    }
    return ExitCodes.OK;
  }

  private static JsonNode get(Session session, String path, String tenant) {
    return session.api().send(ApiClient.Call.of("GET", path).tenant(tenant)).body();
  }

  private static JsonNode list(Session session, String path, String tenant) {
    return Printer.JSON.valueToTree(Pager.all(session.api(), path, tenant));
  }

  /** The tenant's keys, or a note when this credential may not read them (tenant.manage). */
  private static JsonNode signingKeys(Session session, String tenant) {
    try {
      return get(session, "/v1/tenants/" + tenant + "/signing-keys", tenant).path("keys");
    } catch (ApiException e) {
      return Printer.JSON.getNodeFactory().textNode("not readable: " + e.getMessage());
    }
  }

  private static void text(PrintWriter out, Kind kind, JsonNode described) {
    JsonNode doc = described.path("object");
    JsonNode meta = doc.path("metadata");
    field(out, "Kind", doc.path("kind").asText());
    field(out, "Name", meta.path("name").asText());
    field(out, "Tenant", meta.path("tenant").asText());
    field(out, "Namespace", meta.path("namespace").asText());
    field(out, "Version", meta.path("version").asText());
    field(out, "State", doc.path("status").path("state").asText());
    out.println("Spec:");
    out.print(Printer.yaml(doc.path("spec")).indent(2));
    if (described.has("placement")) {
      placement(out, described.path("placement"));
    }
    if (described.has("namespaces")) {
      names(out, "Namespaces", described.path("namespaces"));
    }
    if (described.has("streams")) {
      names(out, "Streams", described.path("streams"));
    }
    if (described.has("signing_keys")) {
      keys(out, described.path("signing_keys"));
    }
    out.flush();
  }

  private static void field(PrintWriter out, String label, String value) {
    if (!value.isEmpty()) {
      out.printf("%-11s %s%n", label + ":", value);
    }
  }

  private static void placement(PrintWriter out, JsonNode placement) {
    out.println("Placement (version " + placement.path("metadata").path("version").asText() + "):");
    Table table = new Table("SHARD", "LEADER", "REPLICAS");
    for (JsonNode shard : placement.path("spec").path("placements")) {
      List<String> replicas = new java.util.ArrayList<>();
      shard.path("replicas").forEach(r -> replicas.add(r.asText()));
      table.row(
          shard.path("shard_id").asText(),
          shard.path("leader").asText(),
          String.join(",", replicas));
    }
    indented(out, table);
  }

  private static void names(PrintWriter out, String label, JsonNode items) {
    out.println(label + " (" + items.size() + "):");
    Table table = new Table("NAME", "VERSION");
    items.forEach(
        i ->
            table.row(
                i.path("metadata").path("name").asText(),
                i.path("metadata").path("version").asText()));
    if (!table.isEmpty()) {
      indented(out, table);
    }
  }

  private static void keys(PrintWriter out, JsonNode keys) {
    if (keys.isTextual()) {
      out.println("Signing keys: (" + keys.asText() + ")");
      return;
    }
    if (keys.isEmpty()) {
      // Only a tenant created before tenants got a key at creation: its first exchange makes one.
      out.println("Signing keys: none yet (the tenant's first token exchange creates one)");
      return;
    }
    out.println("Signing keys:");
    indented(out, KeysCommand.table(keys));
  }

  private static void indented(PrintWriter out, Table table) {
    java.io.StringWriter text = new java.io.StringWriter();
    table.print(new PrintWriter(text));
    out.print(text.toString().indent(2));
  }
}
