package dev.controlplane.metadata.log;

import dev.controlplane.metadata.model.MetadataUpdate;
import dev.controlplane.metadata.model.Resource;
import dev.controlplane.metadata.model.UpdateType;
import java.util.ArrayList;
import java.util.List;

/**
 * A write in progress: the caller holds the version counter's row lock and the current term. Each
 * {@link #apply} assigns the next version, changes the current state and appends the update, all in
 * the caller's transaction; nothing is visible to anyone until it commits.
 */
public final class VersionedWrite {

  private final ChangeLog log;
  private final ClusterStateEntity state;
  private final long term;
  private final WriteMode mode;
  private final List<MetadataUpdate> updates = new ArrayList<>();

  VersionedWrite(ChangeLog log, ClusterStateEntity state, long term, WriteMode mode) {
    this.log = log;
    this.state = state;
    this.term = term;
    this.mode = mode;
  }

  /**
   * Returns {@code result}, the outcome of the write; on a dry run the transaction is first marked
   * to roll back, so {@code result} shows what would have been committed (with the versions it
   * would have had) while nothing is. Every write that may be a dry run ends here.
   */
  public <T> T finish(T result) {
    if (mode == WriteMode.DRY_RUN) {
      log.rollBackDryRun();
    }
    return result;
  }

  /** Creates the resource, or replaces {@code previous}. Returns it with its new version. */
  public <R extends Resource> R put(R resource, Resource previous) {
    UpdateType type = previous == null ? UpdateType.CREATE : UpdateType.UPDATE;
    return apply(type, resource, previous);
  }

  /** Deletes {@code current}; the update carries it as it was. */
  public <R extends Resource> R delete(R current) {
    return apply(UpdateType.DELETE, current, current);
  }

  /**
   * Deletes {@code previous} while its row stays behind as {@code tombstone} (a stream waiting for
   * its purge): brokers see a DELETE, the row keeps what a restore needs.
   */
  public <R extends Resource> R deleteKeeping(R tombstone, Resource previous) {
    return apply(UpdateType.DELETE, tombstone, previous);
  }

  @SuppressWarnings("unchecked")
  private <R extends Resource> R apply(UpdateType type, R resource, Resource previous) {
    long version = ++state.metadataVersion;
    R versioned = (R) resource.withVersion(version);
    log.persist(new MetadataUpdate(version, type, versioned, previous), term);
    updates.add(new MetadataUpdate(version, type, versioned, previous));
    return versioned;
  }

  /** The version the current state will have once this write commits. */
  public long version() {
    return state.metadataVersion;
  }

  public List<MetadataUpdate> updates() {
    return List.copyOf(updates);
  }
}
