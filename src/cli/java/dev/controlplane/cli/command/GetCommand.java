package dev.controlplane.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import dev.controlplane.cli.BaseCommand;
import dev.controlplane.cli.CliException;
import dev.controlplane.cli.ExitCodes;
import dev.controlplane.cli.Session;
import dev.controlplane.cli.client.ApiClient;
import dev.controlplane.cli.client.ApiException;
import dev.controlplane.cli.option.KindCandidates;
import dev.controlplane.cli.option.OutputOption;
import dev.controlplane.cli.option.ScopeOptions;
import dev.controlplane.cli.output.OutputFormat;
import dev.controlplane.cli.output.Render;
import dev.controlplane.cli.resource.Kind;
import dev.controlplane.cli.resource.Lister;
import dev.controlplane.cli.resource.Refs;
import dev.controlplane.cli.resource.ResourceRef;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code cpctl get}: objects of one kind, listed (paged through) or by name. */
@Command(
    name = "get",
    header = "Print objects of one kind.",
    mixinStandardHelpOptions = true,
    description = {
      "Print objects of one kind: tenants, namespaces, streams, placements or brokers. Without"
          + " names, every object in the scope is listed (cpctl follows the pages). Namespaces"
          + " need a tenant; streams and placements a tenant and, optionally, a namespace"
          + " (without one, every namespace of the tenant)."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  cpctl get tenants",
      "  cpctl get namespaces -t acme",
      "  cpctl get streams -t acme -n payments",
      "  cpctl get stream orders -t acme -n payments -o yaml",
      "  cpctl get streams -A -o json          # every tenant",
      "  cpctl get brokers"
    })
public final class GetCommand extends BaseCommand {

  @Parameters(index = "0", paramLabel = "KIND", completionCandidates = KindCandidates.class)
  String kindWord;

  @Parameters(index = "1..*", paramLabel = "NAME", description = "Names (default: all).")
  List<String> names = new ArrayList<>();

  @Mixin ScopeOptions scope;
  @Mixin OutputOption output;

  @Option(
      names = {"-A", "--all-tenants"},
      description = "Namespaces, streams or placements of every tenant.")
  boolean allTenants;

  @Option(
      names = "--chunk-size",
      defaultValue = "500",
      paramLabel = "N",
      description =
          "Objects per request while paging through a list (1 to 1000). Default: ${DEFAULT-VALUE}.")
  int chunkSize;

  @Override
  protected int execute() {
    Session session = session();
    Kind kind = Kind.parse(kindWord);
    if (chunkSize < 1 || chunkSize > 1000) {
      throw CliException.usage("--chunk-size must be between 1 and 1000");
    }
    String tenant = kind.inTenant() && !allTenants ? session.tenant(scope.tenant) : scope.tenant;
    if (names.isEmpty()) {
      if (kind.inNamespace() && scope.namespace == null && !allTenants) {
        session.err().println("(every namespace of tenant " + tenant + ")");
      }
      List<JsonNode> docs =
          new Lister(session.api(), chunkSize).list(kind, tenant, scope.namespace, allTenants);
      Render.objects(session, kind, docs, output.format);
      return ExitCodes.OK;
    }
    return byName(session, kind, tenant);
  }

  private int byName(Session session, Kind kind, String tenant) {
    List<JsonNode> found = new ArrayList<>();
    int exit = ExitCodes.OK;
    for (String name : names) {
      ResourceRef ref = Refs.named(session, kind, tenant, scope.namespace, name);
      try {
        found.add(
            session.api().send(ApiClient.Call.of("GET", ref.path()).tenant(ref.tenant())).body());
      } catch (ApiException e) {
        session.err().println("error: " + ref.display() + ": " + e.getMessage());
        exit = e.exitCode();
      }
    }
    if (found.size() == 1 && names.size() == 1) {
      Render.object(session, kind, found.get(0), output.format);
    } else if (!found.isEmpty() || output.format != OutputFormat.TABLE) {
      Render.objects(session, kind, found, output.format);
    }
    return exit;
  }
}
