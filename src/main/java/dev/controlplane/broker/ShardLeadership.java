package dev.controlplane.broker;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.metadata.log.ChangeLog;
import dev.controlplane.metadata.log.VersionedWrite;
import dev.controlplane.metadata.model.Broker;
import dev.controlplane.metadata.model.ShardPlacement;
import dev.controlplane.metadata.model.ShardPlacement.ShardAssignment;
import dev.controlplane.metadata.model.StreamRef;
import dev.controlplane.metadata.store.ResourceStore;
import dev.controlplane.tx.Tx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Who leads each shard: explicit transfers, and moving leaderships off a broker that went down. */
@ApplicationScoped
public class ShardLeadership {

  @Inject ChangeLog changeLog;
  @Inject ResourceStore store;

  /** The outcome of a transfer: the leaders before and after, and the metadata version. */
  public record Transfer(String previousLeader, String newLeader, long metadataVersion) {}

  @Tx
  public Transfer transfer(StreamRef ref, int shardId, String target) {
    VersionedWrite write = changeLog.begin();
    ShardPlacement placement =
        store
            .placement(ref)
            .orElseThrow(() -> ControlPlaneException.notFound("stream " + ref + " does not exist"));
    ShardAssignment shard =
        placement.placements().stream()
            .filter(a -> a.shardId() == shardId)
            .findFirst()
            .orElseThrow(
                () -> ControlPlaneException.notFound("stream " + ref + " has no shard " + shardId));
    if (!shard.replicas().contains(target)) {
      throw new ControlPlaneException(
          ErrorCode.FAILED_PRECONDITION,
          "broker " + target + " holds no replica of shard " + shardId + " of " + ref);
    }
    Broker broker =
        store
            .broker(target)
            .orElseThrow(
                () -> ControlPlaneException.notFound("broker " + target + " does not exist"));
    if (broker.status() != Broker.Status.ACTIVE) {
      throw new ControlPlaneException(
          ErrorCode.FAILED_PRECONDITION,
          "broker " + target + " is " + broker.status().wire() + ", not active");
    }
    if (shard.leader().equals(target)) {
      return new Transfer(target, target, write.version());
    }
    write.put(withLeader(placement, shardId, target), placement);
    return new Transfer(shard.leader(), target, write.version());
  }

  /**
   * Inside a write that marks {@code down} as down: every shard it led gets the active replica
   * leading the fewest shards as leader. A shard with no other active replica keeps its leader
   * (nothing can serve it) until a rebalance places it elsewhere.
   */
  public void moveLeadershipsOff(VersionedWrite write, String down) {
    Map<String, Broker> brokers =
        store.allBrokers().stream().collect(Collectors.toMap(Broker::name, Function.identity()));
    for (ShardPlacement placement : store.placementsLedBy(down)) {
      ShardPlacement updated = placement;
      for (ShardAssignment a : placement.placements()) {
        if (!a.leader().equals(down)) {
          continue;
        }
        var next =
            a.replicas().stream()
                .filter(
                    r ->
                        !r.equals(down)
                            && brokers.containsKey(r)
                            && brokers.get(r).status() == Broker.Status.ACTIVE)
                .min(Comparator.comparing((String r) -> r));
        if (next.isPresent()) {
          updated = withLeader(updated, a.shardId(), next.get());
        }
      }
      if (updated != placement) {
        write.put(updated, placement);
      }
    }
  }

  static ShardPlacement withLeader(ShardPlacement placement, int shardId, String leader) {
    List<ShardAssignment> shards = new ArrayList<>();
    for (ShardAssignment a : placement.placements()) {
      if (a.shardId() != shardId) {
        shards.add(a);
        continue;
      }
      List<String> replicas = new ArrayList<>();
      replicas.add(leader);
      a.replicas().stream().filter(r -> !r.equals(leader)).forEach(replicas::add);
      shards.add(new ShardAssignment(shardId, leader, replicas));
    }
    return new ShardPlacement(
        placement.tenant(), placement.namespace(), placement.stream(), shards, placement.version());
  }
}
