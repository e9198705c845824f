package dev.controlplane.metadata;

import dev.controlplane.broker.PlacementLoadQuery;
import dev.controlplane.broker.PlacementPlanner;
import dev.controlplane.config.ControlPlaneConfig;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.metadata.Applied.Outcome;
import dev.controlplane.metadata.log.ChangeLog;
import dev.controlplane.metadata.log.VersionedWrite;
import dev.controlplane.metadata.model.Broker;
import dev.controlplane.metadata.model.ShardPlacement;
import dev.controlplane.metadata.model.Stream;
import dev.controlplane.metadata.model.StreamRef;
import dev.controlplane.metadata.store.ResourceStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Creates streams with their initial placement, changes their mutable settings, and deletes them
 * (a DELETE is published at once; the row is purged after the grace period).
 */
@ApplicationScoped
public class StreamService {

  @Inject ChangeLog changeLog;
  @Inject ResourceStore store;
  @Inject PlacementLoadQuery loadQuery;
  @Inject ControlPlaneConfig config;

  @Transactional
  public Applied<Stream> applyStream(Stream stream, OptionalLong expectedVersion) {
    VersionedWrite write = changeLog.begin();
    StreamRef ref = stream.ref();
    if (store.namespace(ref.tenant(), ref.namespace()).isEmpty()) {
      throw ControlPlaneException.notFound("namespace " + ref.tenant() + "/" + ref.namespace() + " does not exist");
    }
    Optional<Stream> current = store.stream(ref);
    if (current.isPresent() && current.get().state() == Stream.State.DELETING) {
      throw ControlPlaneException.conflict("stream " + ref + " is deleted and waiting for its purge");
    }
    Preconditions.checkExpectedVersion(expectedVersion, current);
    Stream wanted = stream.withState(Stream.State.ACTIVE);
    if (current.isEmpty()) {
      Stream created = write.put(wanted, null);
      var load = loadQuery.loadOf(store.brokersWithStatus(Broker.Status.ACTIVE));
      var shards = PlacementPlanner.placeShards(wanted.spec().shards(), wanted.spec().replicationFactor(), load);
      write.put(new ShardPlacement(ref.tenant(), ref.namespace(), ref.stream(), shards, 0), null);
      return new Applied<>(created, Outcome.CREATED);
    }
    Stream existing = current.get();
    if (existing.spec().shards() != wanted.spec().shards()
        || existing.spec().replicationFactor() != wanted.spec().replicationFactor()) {
      throw ControlPlaneException.conflict(
          "spec.shards and spec.replication_factor of stream " + ref + " cannot change after creation");
    }
    if (Preconditions.sameContent(existing, wanted)) {
      return new Applied<>(existing, Outcome.UNCHANGED);
    }
    return new Applied<>(write.put(wanted, existing), Outcome.UPDATED);
  }

  @Transactional
  public Stream deleteStream(StreamRef ref) {
    VersionedWrite write = changeLog.begin();
    Stream current =
        store
            .stream(ref)
            .filter(s -> s.state() == Stream.State.ACTIVE)
            .orElseThrow(() -> ControlPlaneException.notFound("stream " + ref + " does not exist"));
    store.placement(ref).ifPresent(write::delete);
    Stream deleted = write.deleteKeeping(current.withState(Stream.State.DELETING), current);
    Instant now = Instant.now();
    store.schedulePurge(ref, now, now.plus(config.streamDeleteGrace()));
    return deleted;
  }

  /** Purges streams whose grace period is over; returns how many. */
  @Transactional
  public int purgeExpired(int limit) {
    var expired = store.streamsToPurge(Instant.now(), limit);
    expired.forEach(s -> store.purge(s.ref()));
    return expired.size();
  }
}
