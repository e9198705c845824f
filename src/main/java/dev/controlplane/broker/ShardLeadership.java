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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * Who leads each shard: explicit transfers, and keeping a live leader on every shard that has a
 * live replica as brokers go down and come back.
 */
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
   * Inside a write that changed which brokers are alive (one marked down, or one back): every shard
   * whose leader is down (or no longer registered) gets a live replica as leader, a placement
   * UPDATE like any other. An active replica comes first; a draining one is alive and serves rather
   * than nobody (the next rebalance moves the leadership on). A shard with no live replica keeps
   * its leader until one comes back: that is why the return of a broker runs this too, not only the
   * loss of one.
   */
  static void replaceDownLeaders(WriteContext write) {
    MetadataImage image = write.image();
    List<ShardPlacement> leaderless =
        image.placements().stream()
            .filter(p -> p.placements().stream().anyMatch(a -> !isLive(image::broker, a.leader())))
            .toList();
    if (leaderless.isEmpty()) {
      return;
    }
    InSync inSync = write.query(c -> ReplicaReports.read(c, leaderless));
    for (ShardPlacement placement : leaderless) {
      ShardPlacement updated =
          withLiveLeaders(placement, image::broker, b -> write.state().load(b).leaders(), inSync);
      if (updated != placement) {
        write.put(updated, placement);
      }
    }
  }

  /** What a replica last reported of its copy of one shard: caught up, behind, or nothing. */
  @FunctionalInterface
  interface InSync {
    InSync UNKNOWN = (broker, placement, shardId) -> Optional.empty();

    Optional<Boolean> reported(String broker, ShardPlacement placement, int shardId);
  }

  /**
   * {@code placement} with a live leader for each shard led by a broker that is not alive, where a
   * replica is: one whose last heartbeat said its copy was in sync before one that said nothing,
   * and that before one that said it lagged (a lagging leader would lose the messages it lacks, as
   * Kafka's in-sync replicas avoid); then active before draining; then the one leading fewest
   * shards (so one broker's loss spreads its leaderships); then by name. Availability still wins: a
   * shard whose only live replica lagged is led by it rather than by nobody. The same object when
   * nothing changes.
   */
  static ShardPlacement withLiveLeaders(
      ShardPlacement placement,
      Function<String, Optional<Broker>> brokers,
      ToIntFunction<String> leaderships,
      InSync inSync) {
    Map<String, Integer> gained = new HashMap<>();
    ShardPlacement updated = placement;
    for (ShardAssignment a : placement.placements()) {
      if (isLive(brokers, a.leader())) {
        continue;
      }
      Optional<String> next =
          a.replicas().stream()
              .filter(r -> isLive(brokers, r))
              .min(
                  Comparator.<String>comparingInt(
                          r ->
                              inSync
                                  .reported(r, placement, a.shardId())
                                  .map(s -> s ? 0 : 2)
                                  .orElse(1))
                      .thenComparingInt(r -> isActive(brokers, r) ? 0 : 1)
                      .thenComparingInt(r -> leaderships.applyAsInt(r) + gained.getOrDefault(r, 0))
                      .thenComparing(r -> r));
      if (next.isPresent()) {
        updated = withLeader(updated, a.shardId(), next.get());
        gained.merge(next.get(), 1, Integer::sum);
      }
    }
    return updated;
  }

  private static boolean isLive(Function<String, Optional<Broker>> brokers, String name) {
    return brokers.apply(name).map(Broker::isLive).orElse(false);
  }

  private static boolean isActive(Function<String, Optional<Broker>> brokers, String name) {
    return brokers.apply(name).map(b -> b.status() == Broker.Status.ACTIVE).orElse(false);
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
