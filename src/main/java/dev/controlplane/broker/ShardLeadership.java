package dev.controlplane.broker;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.metadata.model.Broker;
import dev.controlplane.metadata.model.ShardPlacement;
import dev.controlplane.metadata.model.ShardPlacement.ShardAssignment;
import dev.controlplane.metadata.model.StreamRef;
import dev.controlplane.metadata.snapshot.MetadataImage;
import dev.controlplane.write.WriteContext;
import dev.controlplane.write.WritePipeline;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Who leads each shard: explicit transfers, and moving leaderships off a broker that went down. */
@ApplicationScoped
public class ShardLeadership {

  @Inject WritePipeline pipeline;

  /** The outcome of a transfer: the leaders before and after, and the metadata version. */
  public record Transfer(String previousLeader, String newLeader, long metadataVersion) {}

  public Transfer transfer(StreamRef ref, int shardId, String target) {
    return pipeline.execute(write -> transfer(write, ref, shardId, target));
  }

  private static Transfer transfer(WriteContext write, StreamRef ref, int shardId, String target) {
    ShardPlacement placement =
        write
            .image()
            .placement(ref)
            .orElseThrow(() -> ControlPlaneException.notFound("stream " + ref + " does not exist"));
    ShardAssignment shard =
        placement.placements().stream()
            .filter(a -> a.shardId() == shardId)
            .findFirst()
            .orElseThrow(
                () -> ControlPlaneException.notFound("stream " + ref + " has no shard " + shardId));
    Broker broker =
        write
            .image()
            .broker(target)
            .orElseThrow(
                () -> ControlPlaneException.notFound("broker " + target + " does not exist"));
    if (!shard.replicas().contains(target)) {
      throw new ControlPlaneException(
          ErrorCode.FAILED_PRECONDITION,
          "broker " + target + " holds no replica of shard " + shardId + " of " + ref);
    }
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
   * Inside a write that marks {@code down} as down: every shard it led gets the active replica with
   * the lowest name as leader. A shard with no other active replica keeps its leader (nothing can
   * serve it) until a rebalance places it elsewhere.
   */
  static void moveLeadershipsOff(WriteContext write, String down) {
    MetadataImage image = write.image();
    List<ShardPlacement> led =
        image.placements().stream()
            .filter(p -> p.placements().stream().anyMatch(a -> a.leader().equals(down)))
            .toList();
    for (ShardPlacement placement : led) {
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
                            && image
                                .broker(r)
                                .map(b -> b.status() == Broker.Status.ACTIVE)
                                .orElse(false))
                .min(Comparator.naturalOrder());
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
