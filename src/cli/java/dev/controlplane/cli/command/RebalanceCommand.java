package dev.controlplane.cli.command;

import dev.controlplane.cli.BaseCommand;
import dev.controlplane.cli.CliException;
import dev.controlplane.cli.ExitCodes;
import dev.controlplane.cli.Session;
import dev.controlplane.cli.client.GrpcClient;
import dev.controlplane.cli.option.OutputOption;
import dev.controlplane.cli.option.ScopeOptions;
import dev.controlplane.cli.output.Progress;
import dev.controlplane.cli.output.Render;
import dev.controlplane.cli.output.Table;
import dev.controlplane.proto.v1.RebalanceShardsRequest;
import dev.controlplane.proto.v1.RebalanceShardsResponse;
import dev.controlplane.proto.v1.RebalanceStrategy;
import dev.controlplane.proto.v1.ShardMove;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code cpctl streams rebalance}: plan or apply new shard placements. */
@Command(
    name = "rebalance",
    header = "Plan or apply new shard placements (moves and their cost).",
    mixinStandardHelpOptions = true,
    description = {
      "Rebalance shard placements (gRPC RebalanceShards) of one stream, a namespace (-n), a"
          + " tenant (-t), or the cluster (--all, operator token). Prints the moves as a table,"
          + " then the movement cost: replica moves copy a shard's data, leadership transfers do"
          + " not; and the moves per broker. --dry-run plans without changing anything.",
      "",
      "Strategies: balanced (even replica and leader counts), minimize-movement (fewest moves"
          + " that bring every broker within one of the average), locality-aware (replicas in"
          + " distinct zones and regions first). Every strategy empties draining and down brokers."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  cpctl streams rebalance --all --strategy minimize-movement --dry-run",
      "  cpctl streams rebalance -t acme -n payments --strategy locality-aware",
      "  cpctl streams rebalance orders -t acme -n payments --summary -o json"
    })
final class RebalanceCommand extends BaseCommand {

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "STREAM",
      description = "One stream (needs -n).")
  String stream;

  @Mixin ScopeOptions scope;

  @Option(names = "--all", description = "Every stream of the cluster (operator token).")
  boolean all;

  @Option(
      names = "--strategy",
      defaultValue = "balanced",
      paramLabel = "STRATEGY",
      description = "balanced, minimize-movement or locality-aware. Default: ${DEFAULT-VALUE}.")
  String strategy;

  @Option(names = "--dry-run", description = "Plan only: print the moves, change nothing.")
  boolean dryRun;

  @Option(
      names = "--summary",
      description = "Only the movement cost and the moves per broker, not each move.")
  boolean summary;

  @Option(
      names = "--timeout",
      defaultValue = "600",
      paramLabel = "SECONDS",
      description = "How long to wait for the server. Default: ${DEFAULT-VALUE}.")
  long timeout;

  @Mixin OutputOption output;

  @Override
  protected int execute() {
    Session session = session();
    RebalanceShardsRequest request = request(session);
    String what =
        all
            ? "cluster"
            : String.join("/", request.getTenantId(), request.getNamespace(), request.getStream())
                .replaceAll("/+$", "");
    RebalanceShardsResponse response;
    try (Progress progress =
        session.progress("rebalance " + what + " (" + request.getStrategy() + ")", 0)) {
      response =
          session
              .grpc()
              .admin(
                  all ? null : request.getTenantId(),
                  dryRun ? GrpcClient.Effect.NONE : GrpcClient.Effect.WRITE,
                  a -> a.withDeadlineAfter(timeout, TimeUnit.SECONDS).rebalanceShards(request));
      progress.add(response.getMovesCount());
    }
    if (!Render.structured(session, Protos.tree(response), output.format)) {
      print(session.out(), response);
    }
    return ExitCodes.OK;
  }

  private RebalanceShardsRequest request(Session session) {
    RebalanceShardsRequest.Builder request =
        RebalanceShardsRequest.newBuilder().setStrategy(strategy()).setDryRun(dryRun);
    if (all) {
      if (scope.tenant != null || scope.namespace != null || stream != null) {
        throw CliException.usage(
            "--all rebalances the whole cluster: give no tenant, namespace or stream");
      }
      return request.build();
    }
    request.setTenantId(session.tenant(scope.tenant));
    if (scope.namespace != null) {
      request.setNamespace(scope.namespace);
    }
    if (stream != null) {
      if (scope.namespace == null) {
        throw CliException.usage("a stream lives in a namespace: give --namespace (-n)");
      }
      request.setStream(stream);
    }
    return request.build();
  }

  private RebalanceStrategy strategy() {
    return switch (strategy.toLowerCase(Locale.ROOT).replace('_', '-')) {
      case "balanced" -> RebalanceStrategy.BALANCED;
      case "minimize-movement" -> RebalanceStrategy.MINIMIZE_MOVEMENT;
      case "locality-aware" -> RebalanceStrategy.LOCALITY_AWARE;
      default ->
          throw CliException.usage(
              "--strategy must be balanced, minimize-movement or locality-aware");
    };
  }

  private void print(PrintWriter out, RebalanceShardsResponse response) {
    if (!summary && response.getMovesCount() > 0) {
      Table moves = new Table("STREAM", "SHARD", "FROM", "TO", "MOVE");
      for (ShardMove m : response.getMovesList()) {
        moves.row(
            m.getStreamId(),
            m.getShardId(),
            m.getFromBroker(),
            m.getToBroker(),
            m.getLeadership() ? "leadership" : "replica");
      }
      moves.print(out);
      out.println();
    }
    long leaderships = response.getMovesList().stream().filter(ShardMove::getLeadership).count();
    out.println(
        "Movement cost: "
            + response.getMovementCount()
            + " replica moves (shard data copied), "
            + leaderships
            + " leadership transfers");
    perBroker(out, response);
    String status = response.getStatus().name().replace("REBALANCE_STATUS_", "");
    out.println(
        "Status: "
            + status
            + " at version "
            + response.getMetadataVersion()
            + (dryRun ? " (dry run: nothing changed)" : ""));
    out.flush();
  }

  /** Replicas and leaderships each broker gains and loses: where the copying happens. */
  private static void perBroker(PrintWriter out, RebalanceShardsResponse response) {
    Map<String, long[]> counts = new TreeMap<>();
    for (ShardMove m : response.getMovesList()) {
      int offset = m.getLeadership() ? 2 : 0;
      counts.computeIfAbsent(m.getToBroker(), b -> new long[4])[offset]++;
      counts.computeIfAbsent(m.getFromBroker(), b -> new long[4])[offset + 1]++;
    }
    if (counts.isEmpty()) {
      return;
    }
    Table table = new Table("BROKER", "REPLICAS-IN", "REPLICAS-OUT", "LEADERS-IN", "LEADERS-OUT");
    counts.forEach((b, c) -> table.row(b, c[0], c[1], c[2], c[3]));
    table.print(out);
  }
}
