package dev.controlplane.cli.command;

import dev.controlplane.cli.BaseCommand;
import dev.controlplane.cli.CliException;
import dev.controlplane.cli.ExitCodes;
import dev.controlplane.cli.Session;
import dev.controlplane.cli.apply.ApplyPlan;
import dev.controlplane.cli.apply.Deleter;
import dev.controlplane.cli.apply.Outcome;
import dev.controlplane.cli.apply.Result;
import dev.controlplane.cli.option.DryRunOption;
import dev.controlplane.cli.option.KindCandidates;
import dev.controlplane.cli.option.OutputOption;
import dev.controlplane.cli.option.ScopeOptions;
import dev.controlplane.cli.output.OutputFormat;
import dev.controlplane.cli.resource.DocumentReader;
import dev.controlplane.cli.resource.Kind;
import dev.controlplane.cli.resource.Refs;
import dev.controlplane.cli.resource.ResourceRef;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code cpctl delete}: tenants, namespaces, streams and brokers, by name or as named in files. */
@Command(
    name = "delete",
    header = "Delete tenants, namespaces, streams or brokers.",
    mixinStandardHelpOptions = true,
    description = {
      "Delete tenants, namespaces, streams or brokers by name, or those the documents of files"
          + " name (streams first, then namespaces, then tenants). A tenant must have no"
          + " namespaces and a namespace no streams (deleted streams count until they are"
          + " purged). A deleted stream can be restored during the grace period (cpctl streams"
          + " restore). A broker can be deleted by the operator once it is marked down and holds"
          + " no shard replica (drain it first)."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  cpctl delete stream orders -t acme -n payments",
      "  cpctl delete stream orders -t acme -n payments --force   # despite active subscribers",
      "  cpctl delete namespace payments -t acme --dry-run=server",
      "  cpctl delete broker b7          # gone for good: down, drained",
      "  cpctl delete -f manifests/"
    })
public final class DeleteCommand extends BaseCommand {

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "KIND",
      completionCandidates = KindCandidates.class)
  String kindWord;

  @Parameters(index = "1..*", paramLabel = "NAME")
  List<String> names = new ArrayList<>();

  @Option(
      names = {"-f", "--filename"},
      paramLabel = "FILE|DIR|-",
      description = "Delete the objects these documents name.")
  List<String> files;

  @Option(
      names = {"-R", "--recursive"},
      description = "Read directories recursively.")
  boolean recursive;

  @Option(names = "--force", description = "Delete streams even while brokers report subscribers.")
  boolean force;

  @Option(names = "--ignore-not-found", description = "An object that does not exist is no error.")
  boolean ignoreNotFound;

  @Mixin ScopeOptions scope;
  @Mixin DryRunOption dryRun;
  @Mixin OutputOption output;

  @Override
  protected int execute() {
    Session session = session();
    List<ResourceRef> refs = targets(session);
    Deleter deleter = new Deleter(session.api(), dryRun.enabled(), force);
    boolean documents = output.format == OutputFormat.YAML || output.format == OutputFormat.JSON;
    List<Result> results = new ArrayList<>();
    for (ResourceRef ref : refs) {
      Result result = deleter.delete(ref, Outcome.DELETED, ignoreNotFound);
      (documents ? session.err() : session.out()).println(result.line(dryRun.note()));
      results.add(result);
    }
    if (documents) {
      session
          .printer()
          .list(results.stream().map(Result::doc).filter(d -> d != null).toList(), output.format);
    }
    session.out().flush();
    return results.stream().anyMatch(r -> r.outcome().isFailure())
        ? ExitCodes.FAILED
        : ExitCodes.OK;
  }

  private List<ResourceRef> targets(Session session) {
    if (files != null) {
      if (kindWord != null) {
        throw CliException.usage("give either -f or KIND NAME..., not both");
      }
      var docs = new DocumentReader(session.stdin()).read(files, recursive);
      ApplyPlan plan =
          ApplyPlan.of(
              docs,
              scope.tenant != null ? scope.tenant : session.target().tenant().orElse(null),
              scope.namespace);
      if (!plan.invalid().isEmpty()) {
        throw CliException.usage(plan.invalid().get(0).line(""));
      }
      return plan.itemsForDelete().stream().map(ApplyPlan.Item::ref).toList();
    }
    if (kindWord == null || names.isEmpty()) {
      throw CliException.usage("give KIND and NAME..., or -f FILE");
    }
    Kind kind = Kind.parse(kindWord);
    return names.stream()
        .map(n -> Refs.named(session, kind, scope.tenant, scope.namespace, n))
        .toList();
  }
}
