package dev.controlplane.metadata;

import dev.controlplane.broker.PlacementLoadQuery;
import dev.controlplane.broker.PlacementPlanner;
import dev.controlplane.config.ControlPlaneConfig;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.metadata.Applied.Outcome;
import dev.controlplane.metadata.log.ChangeLog;
import dev.controlplane.metadata.log.VersionedWrite;
import dev.controlplane.metadata.log.WriteMode;
import dev.controlplane.metadata.model.Broker;
import dev.controlplane.metadata.model.ShardPlacement;
import dev.controlplane.metadata.model.Stream;
import dev.controlplane.metadata.model.StreamRef;
import dev.controlplane.metadata.store.ResourceStore;
import dev.controlplane.tx.Tx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Creates streams with their initial placement, changes their mutable settings, and deletes them (a
 * DELETE is published at once; the row is purged after the grace period).
 */
@ApplicationScoped
public class StreamService {

  @Inject ChangeLog changeLog;
  @Inject ResourceStore store;
  @Inject PlacementLoadQuery loadQuery;
  @Inject ControlPlaneConfig config;
  @Inject StreamQuotas quotas;
  @Inject dev.controlplane.broker.BrokerHealthQueries health;

  /**
   * Creates the stream and its placement; ALREADY_EXISTS when the name is taken (deleted ones
   * included).
   */
  @Tx
  public Stream createStream(Stream stream) {
    VersionedWrite write = changeLog.begin();
    requireNamespace(stream.ref());
    if (store.stream(stream.ref()).isPresent()) {
      throw new ControlPlaneException(
          ErrorCode.ALREADY_EXISTS, "stream " + stream.ref() + " already exists");
    }
    return create(write, stream);
  }

  /**
   * Create-or-replace for the declarative API: creates like {@link #createStream}, or changes
   * mutable settings; a dry run answers the same and commits nothing.
   */
  @Tx
  public Applied<Stream> applyStream(
      Stream stream, OptionalLong expectedVersion, VersionMatch match, WriteMode mode) {
    VersionedWrite write = changeLog.begin(mode);
    return write.finish(apply(write, stream, expectedVersion, match));
  }

  private Applied<Stream> apply(
      VersionedWrite write, Stream stream, OptionalLong expectedVersion, VersionMatch match) {
    StreamRef ref = stream.ref();
    requireNamespace(ref);
    Optional<Stream> current = store.stream(ref);
    if (current.isPresent() && current.get().state() == Stream.State.DELETING) {
      throw ControlPlaneException.conflict(
          "stream " + ref + " is deleted and waiting for its purge; restore it first");
    }
    match.check(current);
    Preconditions.checkExpectedVersion(expectedVersion, current);
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
  @Tx
  public Deleted deleteStream(StreamRef ref, boolean force, VersionMatch match, WriteMode mode) {
    VersionedWrite write = changeLog.begin(mode);
    Stream current =
        store.stream(ref)
            .filter(s -> s.state() == Stream.State.ACTIVE)
            .orElseThrow(() -> ControlPlaneException.notFound("stream " + ref + " does not exist"));
    match.check(Optional.of(current));
    long subscribers = health.activeSubscribers(ref);
    if (subscribers > 0 && !force) {
      throw new ControlPlaneException(
          ErrorCode.FAILED_PRECONDITION,
          "stream "
              + ref
              + " has "
              + subscribers
              + " active subscriber(s); delete with force to proceed");
    }
    store.placement(ref).ifPresent(write::delete);
    Stream deleted = write.deleteKeeping(current.withState(Stream.State.DELETING), current);
    Instant now = Instant.now();
    Instant purgeAfter = now.plus(config.streamDeleteGrace());
    store.schedulePurge(ref, now, purgeAfter);
    return write.finish(new Deleted(deleted, purgeAfter));
  }

  /** Brings back a stream still in its grace period, with a fresh placement (CREATE updates). */
  @Tx
  public Stream restoreStream(StreamRef ref) {
    VersionedWrite write = changeLog.begin();
    Stream deleted =
        store.stream(ref)
            .filter(s -> s.state() == Stream.State.DELETING)
            .orElseThrow(
                () ->
                    ControlPlaneException.notFound(
                        "stream " + ref + " is not waiting for its purge"));
    requireNamespace(ref);
    quotas.checkRoomFor(ref);
    Stream restored = write.put(deleted.withState(Stream.State.ACTIVE), null);
    store.schedulePurge(ref, null, null);
    write.put(newPlacement(restored), null);
    return restored;
  }

  private Stream create(VersionedWrite write, Stream stream) {
    quotas.checkRoomFor(stream.ref());
    Stream created = write.put(stream.withState(Stream.State.ACTIVE), null);
    write.put(newPlacement(created), null);
    return created;
  }

  private ShardPlacement newPlacement(Stream stream) {
    var load = loadQuery.loadOf(store.brokersWithStatus(Broker.Status.ACTIVE));
    var shards =
        PlacementPlanner.placeShards(
            stream.spec().shards(), stream.spec().replicationFactor(), load);
    return new ShardPlacement(stream.tenant(), stream.namespace(), stream.name(), shards, 0);
  }

  private void requireNamespace(StreamRef ref) {
    if (store.namespace(ref.tenant(), ref.namespace()).isEmpty()) {
      throw ControlPlaneException.notFound(
          "namespace " + ref.tenant() + "/" + ref.namespace() + " does not exist");
    }
  }

  /** Purges streams whose grace period is over; returns how many. */
  @Tx
  public int purgeExpired(int limit) {
    var expired = store.streamsToPurge(Instant.now(), limit);
    expired.forEach(s -> store.purge(s.ref()));
    return expired.size();
  }
}
