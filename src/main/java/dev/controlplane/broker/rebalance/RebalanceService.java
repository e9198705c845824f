package dev.controlplane.broker.rebalance;

import dev.controlplane.metadata.log.ChangeLog;
import dev.controlplane.metadata.log.VersionedWrite;
import dev.controlplane.metadata.model.ShardPlacement;
import dev.controlplane.metadata.store.ResourceStore;
import dev.controlplane.tx.Tx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Plans a rebalance on the committed placements and, unless it is a dry run, applies it as
 * placement UPDATEs in one transaction. The counter lock is taken before reading, so the plan is
 * applied to exactly the state it was made for.
 */
@ApplicationScoped
public class RebalanceService {

  @Inject ChangeLog changeLog;
  @Inject ResourceStore store;

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

  @Tx
  public Result rebalance(Scope scope, Strategy strategy, boolean dryRun) {
    VersionedWrite write = dryRun ? null : changeLog.begin();
    var placements = store.allPlacements();
    RebalancePlanner.Plan plan =
        RebalancePlanner.plan(strategy, store.allBrokers(), placements, scope.matcher());
    if (dryRun) {
      return new Result(plan, changeLog.bounds().head(), false);
    }
    Map<dev.controlplane.metadata.model.StreamRef, ShardPlacement> current =
        placements.stream().collect(Collectors.toMap(ShardPlacement::ref, p -> p));
    plan.changedPlacements()
        .forEach(
            (ref, shards) -> {
              ShardPlacement before = current.get(ref);
              write.put(
                  new ShardPlacement(ref.tenant(), ref.namespace(), ref.stream(), shards, 0),
                  before);
            });
    return new Result(plan, write.version(), !plan.moves().isEmpty());
  }
}
