package dev.controlplane.metadata.snapshot;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.metadata.log.ChangeLog;
import dev.controlplane.metadata.log.LogBounds;
import dev.controlplane.metadata.model.MetadataUpdate;
import dev.controlplane.metadata.watch.WatchHub;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Serves snapshots from the watch hub's in-memory image: the latest is the image itself (no
 * database read at all); a past version is reached by undoing the newer updates from it, taken from
 * the hub's window and, for older ones, from the change log.
 */
@ApplicationScoped
public class SnapshotService {

  /** How long a snapshot ahead of this node's image waits for the image to catch up. */
  private static final long CATCH_UP_MILLIS = 2000;

  @Inject WatchHub hub;
  @Inject ChangeLog changeLog;

  /** The metadata at {@code version}; 0 means the latest. */
  public MetadataImage snapshotAt(long version) {
    MetadataImage head = hub.image();
    if (version == 0 || version == head.version()) {
      return head;
    }
    if (version > head.version() && hub.awaitHead(version, CATCH_UP_MILLIS) >= version) {
      head = hub.image();
      if (head.version() == version) {
        return head;
      }
    }
    LogBounds bounds = changeLog.bounds();
    if (version > head.version() || !bounds.covers(version)) {
      throw new LogBounds(Math.min(bounds.head(), head.version()), bounds.retainedFrom())
          .outOfRange(version);
    }
    return undoTo(head, version);
  }

  private MetadataImage undoTo(MetadataImage head, long version) {
    MetadataImage image = head;
    while (image.version() > version) {
      MetadataUpdate recent = hub.fromWindow(image.version());
      if (recent == null) {
        break;
      }
      image = image.undo(recent);
    }
    if (image.version() > version) {
      MetadataImage[] holder = {image};
      try {
        changeLog.forEachNewestFirst(version, image.version(), u -> holder[0] = holder[0].undo(u));
      } catch (IllegalStateException e) {
        throw whyNotServed(version, head.version(), e);
      }
      image = holder[0];
    }
    if (image.version() != version) {
      throw whyNotServed(
          version,
          head.version(),
          new IllegalStateException(
              "the change log ended at version "
                  + image.version()
                  + " going back to version "
                  + version
                  + ", which its bounds say it retains"));
    }
    return image;
  }

  /**
   * Why the snapshot at {@code version}, undone from the image at {@code imageVersion}, could not
   * be built: OUT_OF_RANGE when the retention trimmed {@code version} meanwhile; UNAVAILABLE when
   * the log now ends below the image, because a database failover lost commits this node had read
   * (it notices within a second and reloads, LogTailer); otherwise {@code failure} itself, a fault
   * of this server (a stored update this build cannot read, a log that does not match the image),
   * which must not tell the broker its version is too old: it is not, and another node may serve
   * it.
   */
  private RuntimeException whyNotServed(long version, long imageVersion, RuntimeException failure) {
    LogBounds now = changeLog.bounds();
    if (!now.covers(version)) {
      return now.outOfRange(version);
    }
    if (now.head() < imageVersion) {
      return ControlPlaneException.unavailable(
          "this node holds metadata up to version "
              + imageVersion
              + " but the change log now ends at version "
              + now.head()
              + " (a database failover lost commits); the node is reloading: retry, or resume on"
              + " another node",
          failure);
    }
    return failure;
  }
}
