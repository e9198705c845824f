package dev.controlplane.broker.rebalance;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.metadata.model.ResourceKind;
import dev.controlplane.metadata.model.ShardPlacement;
import dev.controlplane.metadata.model.StreamRef;
import dev.controlplane.metadata.snapshot.MetadataImage;
import dev.controlplane.metadata.watch.WatchHub;
import dev.controlplane.write.WriteContext;
import dev.controlplane.write.WritePipeline;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.function.Predicate;

/**
 * Plans a rebalance on the committed image and, unless it is a dry run, applies it as placement
 * UPDATEs in one pipeline operation. Planning takes seconds on a large cluster, so it runs on the
 * caller's thread, not the pipeline's; the operation then checks that the brokers and placements
 * are still exactly those the plan was made on (the image's persistent maps are the same objects)
 * and plans again on the pipeline thread in the rare case they are not, so a plan never lands on a
 * state it was not made for.
 */
@ApplicationScoped
public class RebalanceService {

  @Inject WritePipeline pipeline;
  @Inject WatchHub hub;

  /** Which placements may move: empty fields are wildcards (namespace, tenant, cluster). */
  public record Scope(String tenant, String namespace, String stream) {
    Predicate<ShardPlacement> matcher() {
      return p ->
          (tenant.isEmpty() || p.tenant().equals(tenant))
              && (namespace.isEmpty() || p.namespace().equals(namespace))
              && (stream.isEmpty() || p.stream().equals(stream));
    }
  }

  /** The plan and the metadata version after it was applied (or at which it was computed). */
  public record Result(RebalancePlanner.Plan plan, long metadataVersion, boolean applied) {}

  public Result rebalance(Scope scope, Strategy strategy, boolean dryRun) {
    MetadataImage planned = pipeline.committedImage().orElseGet(hub::image);
    requireExists(planned, scope);
    RebalancePlanner.Plan plan = plan(planned, scope, strategy);
    if (dryRun) {
      return new Result(plan, planned.version(), false);
    }
    return pipeline.execute(write -> apply(write, planned, plan, scope, strategy));
  }

  /**
   * A scope that names what does not exist (a mistyped stream, a deleted one) is NOT_FOUND, as for
   * every other admin RPC, rather than an empty plan that reads as "already balanced".
   */
  private static void requireExists(MetadataImage image, Scope scope) {
    if (!scope.tenant().isEmpty() && image.tenant(scope.tenant()).isEmpty()) {
      throw ControlPlaneException.notFound("tenant " + scope.tenant() + " does not exist");
    }
    if (!scope.namespace().isEmpty()
        && image.namespace(scope.tenant(), scope.namespace()).isEmpty()) {
      throw ControlPlaneException.notFound(
          "namespace " + scope.tenant() + "/" + scope.namespace() + " does not exist");
    }
    if (!scope.stream().isEmpty()) {
      StreamRef ref = new StreamRef(scope.tenant(), scope.namespace(), scope.stream());
      if (image.stream(ref).isEmpty()) {
        throw ControlPlaneException.notFound("stream " + ref + " does not exist");
      }
    }
  }

  private static Result apply(
      WriteContext write,
      MetadataImage planned,
      RebalancePlanner.Plan optimistic,
      Scope scope,
      Strategy strategy) {
    MetadataImage now = write.image();
    boolean unchanged =
        now.map(ResourceKind.SHARD_PLACEMENT) == planned.map(ResourceKind.SHARD_PLACEMENT)
            && now.map(ResourceKind.BROKER) == planned.map(ResourceKind.BROKER);
    RebalancePlanner.Plan plan = unchanged ? optimistic : plan(now, scope, strategy);
    plan.changedPlacements()
        .forEach(
            (ref, shards) -> {
              ShardPlacement before = now.placement(ref).orElseThrow();
              write.put(placement(ref, shards), before);
            });
    return new Result(plan, write.version(), !plan.moves().isEmpty());
  }

  private static ShardPlacement placement(
      StreamRef ref, java.util.List<ShardPlacement.ShardAssignment> shards) {
    return new ShardPlacement(ref.tenant(), ref.namespace(), ref.stream(), shards, 0);
  }

  private static RebalancePlanner.Plan plan(MetadataImage image, Scope scope, Strategy strategy) {
    return RebalancePlanner.plan(strategy, image.brokers(), image.placements(), scope.matcher());
  }
}
