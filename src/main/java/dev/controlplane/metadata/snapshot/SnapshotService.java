package dev.controlplane.metadata.snapshot;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.metadata.log.ChangeLog;
import dev.controlplane.metadata.log.LogBounds;
import dev.controlplane.metadata.store.ResourceStore;
import dev.controlplane.tx.Tx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

/**
 * Builds snapshots. The current state and the change log are read in one repeatable-read
 * transaction, so the image and its version agree exactly even while writers commit; a past version
 * is reached by undoing the newer updates.
 */
@ApplicationScoped
public class SnapshotService {

  @PersistenceContext(unitName = "controlplane")
  EntityManager em;

  @Inject ResourceStore store;
  @Inject ChangeLog changeLog;

  /** The metadata at {@code version}; 0 means the latest. */
  @Tx
  public MetadataImage snapshotAt(long version) {
    em.createNativeQuery("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        .executeUpdate();
    LogBounds bounds = changeLog.bounds();
    long target = version == 0 ? bounds.head() : version;
    if (!bounds.covers(target)) {
      throw versionOutOfRange(target, bounds);
    }
    MetadataImage image = new MetadataImage(bounds.head(), store.all());
    changeLog.forEachNewestFirst(target, bounds.head(), image::undo);
    em.clear();
    return image;
  }

  /** The OUT_OF_RANGE failure for a version outside {@code bounds}; watches use it too. */
  public static ControlPlaneException versionOutOfRange(long version, LogBounds bounds) {
    String message =
        version > bounds.head()
            ? "version " + version + " is ahead of the latest version " + bounds.head()
            : "version "
                + version
                + " is older than the retained history (oldest servable version "
                + bounds.oldestServable()
                + "); take a new snapshot";
    return new ControlPlaneException(ErrorCode.OUT_OF_RANGE, message);
  }
}
