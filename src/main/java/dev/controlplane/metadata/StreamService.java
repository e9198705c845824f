package dev.controlplane.metadata;

import dev.controlplane.audit.AuditEntry;
import dev.controlplane.broker.BrokerHealthQueries;
import dev.controlplane.broker.PlacementPlanner;
import dev.controlplane.config.ControlPlaneConfig;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.metadata.Applied.Outcome;
import dev.controlplane.metadata.log.WriteMode;
import dev.controlplane.metadata.model.ShardPlacement;
import dev.controlplane.metadata.model.Stream;
import dev.controlplane.metadata.model.StreamRef;
import dev.controlplane.write.Operation;
import dev.controlplane.write.WriteContext;
import dev.controlplane.write.WritePipeline;
import dev.controlplane.write.WriteState;
import dev.controlplane.write.WriteState.DeletedStream;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Creates streams with their initial placement, changes their mutable settings, and deletes them (a
 * DELETE is published at once; the row is purged after the grace period).
 */
@ApplicationScoped
public class StreamService {

  @Inject WritePipeline pipeline;
  @Inject ControlPlaneConfig config;

  /**
   * Creates the stream and then its placement, at the next version; ALREADY_EXISTS when the name is
   * taken (deleted ones included). Completes on the write pipeline's thread with the stream as
   * created.
   */
  public CompletableFuture<Stream> createStreamAsync(Stream stream) {
    return pipeline.commitAsync(creation(stream));
  }

  private static Operation<Stream> creation(Stream stream) {
    return write -> {
      requireNamespace(write.state(), stream.ref());
      if (write.state().streamInAnyState(stream.ref()).isPresent()) {
        throw new ControlPlaneException(
            ErrorCode.ALREADY_EXISTS, "stream " + stream.ref() + " already exists");
      }
      return create(write, stream);
    };
  }

  /**
   * Create-or-replace for the declarative API: creates like {@link #createStreamAsync}, or changes
   * mutable settings; a dry run answers the same and commits nothing.
   */
  public Applied<Stream> applyStream(Stream stream, VersionMatch match, WriteMode mode) {
    return pipeline.execute(write -> apply(write, stream, match), mode);
  }

  private static Applied<Stream> apply(WriteContext write, Stream stream, VersionMatch match) {
    StreamRef ref = stream.ref();
    requireNamespace(write.state(), ref);
    Optional<Stream> current = write.state().streamInAnyState(ref);
    if (current.isPresent() && current.get().state() == Stream.State.DELETING) {
      throw ControlPlaneException.conflict(
          "stream " + ref + " is deleted and waiting for its purge; restore it first");
    }
    match.check(current);
    if (current.isEmpty()) {
      return new Applied<>(create(write, stream), Outcome.CREATED);
    }
    Stream existing = current.get();
    Stream wanted = stream.withState(Stream.State.ACTIVE);
    if (existing.spec().shards() != wanted.spec().shards()
        || existing.spec().replicationFactor() != wanted.spec().replicationFactor()) {
      throw ControlPlaneException.conflict(
          "spec.shards and spec.replication_factor of stream "
              + ref
              + " cannot change after creation");
    }
    if (Preconditions.sameContent(existing, wanted)) {
      return new Applied<>(existing, Outcome.UNCHANGED);
    }
    return new Applied<>(write.put(wanted, existing), Outcome.UPDATED);
  }

  /** A deleted stream as published, and the instant after which its data is purged. */
  public record Deleted(Stream stream, Instant purgeAfter) {}

  /**
   * Publishes the DELETE of the stream and its placement at once; the row waits for the grace
   * period. Refused while brokers report active subscribers, unless {@code force}. A dry run
   * answers the same and commits nothing.
   */
  public Deleted deleteStream(StreamRef ref, boolean force, VersionMatch match, WriteMode mode) {
    return pipeline.execute(
        write -> {
          Stream current =
              write.image().stream(ref)
                  .orElseThrow(
                      () -> ControlPlaneException.notFound("stream " + ref + " does not exist"));
          match.check(Optional.of(current));
          List<String> bridges = write.image().bridgesCarrying(ref);
          if (!bridges.isEmpty()) {
            // Not overridden by force: a bridge naming a stream that is gone would send the data
            // plane after nothing.
            throw new ControlPlaneException(
                ErrorCode.FAILED_PRECONDITION,
                "stream "
                    + ref
                    + " is carried by bridge(s) "
                    + String.join(", ", bridges)
                    + "; remove it from them first");
          }
          long subscribers = write.query(c -> BrokerHealthQueries.activeSubscribers(c, ref));
          if (subscribers > 0 && !force) {
            throw new ControlPlaneException(
                ErrorCode.FAILED_PRECONDITION,
                "stream "
                    + ref
                    + " has "
                    + subscribers
                    + " active subscriber(s); delete with force to proceed");
          }
          write.image().placement(ref).ifPresent(write::delete);
          Instant now = Instant.now();
          Instant purgeAfter = now.plus(config.streamDeleteGrace());
          Stream deleted =
              write.deleteKeeping(
                  current.withState(Stream.State.DELETING), current, now, purgeAfter);
          return new Deleted(deleted, purgeAfter);
        },
        mode);
  }

  /** Brings back a stream still in its grace period, with a fresh placement (CREATE updates). */
  public Stream restoreStream(StreamRef ref) {
    return pipeline.execute(
        write -> {
          DeletedStream deleted = write.state().deleting().get(ref.key());
          if (deleted == null) {
            throw ControlPlaneException.notFound("stream " + ref + " is not waiting for its purge");
          }
          // The purge duty runs every few minutes: until it does, a stream past its grace period
          // is still held, but the deadline the delete answered is what clients plan by.
          if (!deleted.purgeAfter().isAfter(Instant.now())) {
            throw ControlPlaneException.notFound(
                "stream "
                    + ref
                    + " cannot be restored: its grace period ended at "
                    + deleted.purgeAfter()
                    + " and it is being purged");
          }
          requireNamespace(write.state(), ref);
          StreamQuotas.checkRoomFor(write.state(), ref);
          Stream restored = write.put(deleted.stream().withState(Stream.State.ACTIVE), null);
          write.cancelPurge(ref);
          write.put(newPlacement(write.state(), restored), null);
          write.audit(streamEntry("restore", ref));
          return restored;
        });
  }

  private static AuditEntry streamEntry(String verb, StreamRef ref) {
    return AuditEntry.of("metadata", "stream." + verb, verb, ref.tenant())
        .in(ref.namespace(), ref.stream())
        .on("stream:" + ref.key());
  }

  private static Stream create(WriteContext write, Stream stream) {
    StreamQuotas.checkRoomFor(write.state(), stream.ref());
    Stream created = write.put(stream.withState(Stream.State.ACTIVE), null);
    write.put(newPlacement(write.state(), created), null);
    return created;
  }

  private static ShardPlacement newPlacement(WriteState state, Stream stream) {
    var shards =
        PlacementPlanner.placeShards(
            stream.spec().shards(), stream.spec().replicationFactor(), state.ranking());
    return new ShardPlacement(stream.tenant(), stream.namespace(), stream.name(), shards, 0);
  }

  private static void requireNamespace(WriteState state, StreamRef ref) {
    if (state.image().namespace(ref.tenant(), ref.namespace()).isEmpty()) {
      throw ControlPlaneException.notFound(
          "namespace " + ref.tenant() + "/" + ref.namespace() + " does not exist");
    }
  }

  /** Purges streams whose grace period is over (at most {@code limit}); returns how many. */
  public int purgeExpired(int limit) {
    return pipeline.execute(
        write -> {
          Instant now = Instant.now();
          List<StreamRef> expired =
              write.state().deleting().values().stream()
                  .filter(d -> d.purgeAfter() != null && d.purgeAfter().isBefore(now))
                  .limit(limit)
                  .map(d -> d.stream().ref())
                  .toList();
          for (StreamRef ref : expired) {
            write.purge(ref);
            write.audit(streamEntry("purge", ref));
          }
          return expired.size();
        });
  }
}
