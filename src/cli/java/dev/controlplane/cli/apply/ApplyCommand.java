package dev.controlplane.cli.apply;

import dev.controlplane.cli.BaseCommand;
import dev.controlplane.cli.CliException;
import dev.controlplane.cli.ExitCodes;
import dev.controlplane.cli.Session;
import dev.controlplane.cli.option.DryRunOption;
import dev.controlplane.cli.option.OutputOption;
import dev.controlplane.cli.output.OutputFormat;
import dev.controlplane.cli.output.Progress;
import dev.controlplane.cli.resource.DocumentReader;
import dev.controlplane.cli.resource.Lister;
import dev.controlplane.cli.resource.ResourceRef;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code cpctl apply -f}: declarative create-or-update of many objects. */
@Command(
    name = "apply",
    header = "Create or update objects from YAML or JSON files.",
    mixinStandardHelpOptions = true,
    description = {
      "Create or update the objects of YAML or JSON files: Tenant, Namespace, Stream, and the"
          + " spec.status of a Broker. Files may hold many documents (--- in YAML, an array in"
          + " JSON, or a List as cpctl get -o yaml prints). Objects are written in dependency"
          + " order (brokers' status, tenants, namespaces, streams), one per request, and each is"
          + " reported: created, configured, unchanged, conflict (changed by someone else, not"
          + " overwritten), invalid, failed, or skipped (its tenant or namespace failed).",
      "",
      "A document's metadata.version is a precondition; without one, the version read just"
          + " before the write is. The exit code is 1 when any object was not applied."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  cpctl apply -f tenant.yaml",
      "  cpctl apply -f manifests/ -R",
      "  cpctl get streams -t acme -n payments -o yaml | cpctl apply -f -",
      "  cpctl apply -f manifests/ --dry-run=server     # what would change, nothing changes",
      "  cpctl apply -f acme.yaml --prune               # also delete what acme.yaml no longer names"
    })
public final class ApplyCommand extends BaseCommand {

  @Option(
      names = {"-f", "--filename"},
      required = true,
      paramLabel = "FILE|DIR|-",
      description = "Files, directories (their .yaml, .yml, .json files) or - for stdin.")
  List<String> files;

  @Option(
      names = {"-R", "--recursive"},
      description = "Read directories recursively.")
  boolean recursive;

  @Option(
      names = {"-t", "--tenant"},
      paramLabel = "TENANT",
      description = "Tenant of documents without metadata.tenant (default: the context's).")
  String tenant;

  @Option(
      names = {"-n", "--namespace"},
      paramLabel = "NAMESPACE",
      description = "Namespace of Stream documents without metadata.namespace.")
  String namespace;

  @Option(
      names = "--prune",
      description =
          "Also delete, in every namespace and tenant the files declare, the streams and"
              + " namespaces they do not (never tenants or brokers). Off by default.")
  boolean prune;

  @Option(
      names = "--parallel",
      defaultValue = "4",
      paramLabel = "N",
      description = "Objects of one level written at once. Default: ${DEFAULT-VALUE}.")
  int parallel;

  @Mixin DryRunOption dryRun;
  @Mixin OutputOption output;

  @Override
  protected int execute() {
    Session session = session();
    if (parallel < 1 || parallel > 64) {
      throw CliException.usage("--parallel must be between 1 and 64");
    }
    var docs = new DocumentReader(session.stdin()).read(files, recursive);
    if (docs.isEmpty()) {
      throw CliException.usage("no documents in " + String.join(", ", files));
    }
    ApplyPlan plan =
        ApplyPlan.of(
            docs, tenant != null ? tenant : session.target().tenant().orElse(null), namespace);
    boolean documents = output.format == OutputFormat.YAML || output.format == OutputFormat.JSON;
    PrintWriter lines = documents ? session.err() : session.out();
    List<Result> results = new ArrayList<>(plan.invalid());
    plan.invalid().forEach(r -> lines.println(r.line(dryRun.note())));
    results.addAll(applyAll(session, plan, lines));
    boolean failed = results.stream().anyMatch(r -> r.outcome().isFailure());
    if (prune) {
      results.addAll(prune(session, plan, failed, lines));
    }
    if (documents) {
      session
          .printer()
          .list(results.stream().map(Result::doc).filter(d -> d != null).toList(), output.format);
    }
    summary(session.err(), results);
    return results.stream().anyMatch(r -> r.outcome().isFailure())
        ? ExitCodes.FAILED
        : ExitCodes.OK;
  }

  private List<Result> applyAll(Session session, ApplyPlan plan, PrintWriter lines) {
    ObjectApplier applier =
        new ObjectApplier(session.api(), new BrokerStatusWriter(session.grpc()), dryRun.enabled());
    ApplyRun run = new ApplyRun(applier, parallel, dryRun.enabled(), r -> print(lines, r));
    try (Progress progress = session.progress("apply", plan.size())) {
      return run.apply(plan, progress);
    }
  }

  private void print(PrintWriter lines, Result result) {
    lines.println(result.line(dryRun.note()));
    result.changes().forEach(c -> lines.println("  " + c));
    lines.flush();
  }

  private List<Result> prune(Session session, ApplyPlan plan, boolean failed, PrintWriter lines) {
    if (failed) {
      session.err().println("prune skipped: not every object was applied");
      return List.of();
    }
    Deleter deleter = new Deleter(session.api(), dryRun.enabled(), false);
    List<Result> pruned = new ArrayList<>();
    for (ResourceRef ref : new Pruner(new Lister(session.api())).candidates(plan.items())) {
      Result result = deleter.delete(ref, Outcome.PRUNED, true);
      print(lines, result);
      pruned.add(result);
    }
    return pruned;
  }

  private void summary(PrintWriter err, List<Result> results) {
    if (results.size() < 2) {
      return;
    }
    java.util.Map<Outcome, Long> counts = new java.util.EnumMap<>(Outcome.class);
    results.forEach(r -> counts.merge(r.outcome(), 1L, Long::sum));
    StringBuilder text = new StringBuilder().append(results.size()).append(" objects:");
    String sep = " ";
    for (var e : counts.entrySet()) {
      text.append(sep).append(e.getValue()).append(' ').append(e.getKey().word());
      sep = ", ";
    }
    err.println(text.append(dryRun.note()));
    err.flush();
  }
}
