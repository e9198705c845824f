package dev.controlplane.metadata.watch;

import dev.controlplane.cache.TenantChanges;
import dev.controlplane.metadata.log.ChangeLog;
import dev.controlplane.metadata.log.LogBounds;
import dev.controlplane.metadata.model.MetadataUpdate;
import dev.controlplane.metadata.snapshot.MetadataImage;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps a {@link WatchHub} in step with the change log in the database, on one thread: it reads the
 * updates after the hub's head whenever a commit is signalled (NOTIFY from another node) and at
 * least once a second, and when there is nothing to read it checks the log's bounds, which tell
 * whether the database went back behind what this node read or moved its history past the hub's
 * head without an update to read.
 */
final class LogTailer {

  private static final Logger LOG = Logger.getLogger(LogTailer.class.getName());

  /**
   * How long reads of the change log must have failed before the node counts as unable to read it:
   * longer than a database restart takes.
   */
  static final Duration UNREADABLE_AFTER = Duration.ofSeconds(5);

  private final WatchHub hub;
  private final ChangeLog changeLog;
  private final TenantChanges tenants;
  private final WatchMetrics metrics;
  private final Object wakeLock = new Object();
  private final long unreadableAfterNanos;
  private boolean changed;
  private volatile boolean running = true;

  /** When reads of the change log started failing; 0 while they work. */
  private volatile long logFailingSince;

  private long lastFailureLogged;

  LogTailer(
      WatchHub hub,
      ChangeLog changeLog,
      TenantChanges tenants,
      WatchMetrics metrics,
      Duration unreadableAfter) {
    this.hub = hub;
    this.changeLog = changeLog;
    this.tenants = tenants;
    this.metrics = metrics;
    this.unreadableAfterNanos = unreadableAfter.toNanos();
  }

  void start(ThreadFactory threads) {
    Thread thread = threads.newThread(this::tail);
    thread.setName("watch-tailer");
    thread.start();
  }

  void stop() {
    running = false;
    signal();
  }

  /** Something committed: read the log now rather than at the next second. */
  void signal() {
    synchronized (wakeLock) {
      changed = true;
      wakeLock.notifyAll();
    }
  }

  /**
   * For how long this node has not been able to read the change log, once that is longer than the
   * bound it was made with ({@link #UNREADABLE_AFTER}). Empty while reading works, and during a
   * shorter failure (a database restart).
   */
  Optional<Duration> unreadableFor() {
    return failingFor().filter(failing -> failing.toNanos() > unreadableAfterNanos);
  }

  /** For how long reads of the change log have failed; empty while the last one worked. */
  Optional<Duration> failingFor() {
    long since = logFailingSince;
    return since == 0 ? Optional.empty() : Optional.of(Duration.ofNanos(System.nanoTime() - since));
  }

  private void tail() {
    while (running) {
      awaitChange();
      if (!readOnce()) {
        sleepQuietly(500);
      }
    }
  }

  /** Reads what the log holds after the hub's head; false when that failed. */
  boolean readOnce() {
    try {
      if (pullNewUpdates()) {
        hub.wakeAll();
      }
      logReadable();
      return true;
    } catch (RuntimeException e) {
      logUnreadable(e);
      return false;
    }
  }

  /** Reads everything after the hub's head; true when the head moved. */
  private boolean pullNewUpdates() {
    long before = hub.head();
    while (running) {
      List<MetadataUpdate> batch = changeLog.readAfter(hub.head(), 1000);
      if (batch.isEmpty()) {
        if (hub.head() == before) {
          checkBounds();
        }
        break;
      }
      if (batch.get(0).version() != hub.head() + 1 && !skipTrimmedHistory()) {
        break;
      }
      hub.append(batch);
    }
    return hub.head() != before;
  }

  /**
   * The first readable version is not the next one. Either history before it was trimmed while this
   * node was not reading (then the image is loaded again from the tables and the hub continues from
   * there: any watcher that needed the trimmed part gets OUT_OF_RANGE), or a commit is not visible
   * yet (then wait for the next round).
   */
  private boolean skipTrimmedHistory() {
    long behind = hub.head();
    LogBounds bounds = changeLog.bounds();
    if (bounds.retainedFrom() <= behind + 1) {
      return false;
    }
    reloadPastTrimmed(behind, bounds);
    return true;
  }

  /**
   * Nothing to read after the hub's head: either the database went back behind it, or its history
   * moved past the head without an update to read (a new history started, or everything after the
   * head trimmed). The head is read first, so a commit racing the check only ever makes the
   * database look newer.
   */
  private void checkBounds() {
    long held = hub.head();
    LogBounds bounds = changeLog.bounds();
    if (bounds.head() < held) {
      rolledBack(held, bounds);
    } else if (bounds.retainedFrom() > held + 1) {
      reloadPastTrimmed(held, bounds);
    }
  }

  private void reloadPastTrimmed(long behind, LogBounds bounds) {
    Optional<MetadataImage> done = hub.reload();
    if (done.isEmpty()) {
      LOG.fine("a newer image took the place of version " + behind + " while the tables loaded");
      return;
    }
    MetadataImage reloaded = done.get();
    // An operator should know: this node paused or lost the database longer than the retention
    // keeps history (or a new history began), and its watchers resuming inside the part it no
    // longer has must take a new snapshot.
    LOG.warning(
        "the change log no longer reaches back to this node's version "
            + behind
            + " (retained from version "
            + bounds.retainedFrom()
            + "): reloaded the metadata image from the tables at version "
            + reloaded.version()
            + "; watches resuming from a version below "
            + bounds.oldestServable()
            + " get OUT_OF_RANGE");
  }

  /**
   * The database is behind versions this node read and delivered: it lost them (restored from a
   * backup, or failed over to a standby that had not received them). The image goes back to the
   * tables, so snapshots show what the database holds; watches past its head end, since the
   * versions they hold are gone; and the cached tenants are dropped, since their rows may be too.
   * The leader starts a new history before its next write ({@code write.NewHistory}).
   */
  private void rolledBack(long held, LogBounds bounds) {
    // Counted once the tables were read: a reload that fails is tried again, and counts then.
    Optional<MetadataImage> done = hub.reload();
    metrics.databaseBehind();
    tenants.changedAll();
    if (done.isEmpty()) {
      // This node's pipeline started the new history meanwhile: its watchers were ended then, and
      // ending those past the tables' old head now would cut off the new history's.
      LOG.fine("a newer image took the place of version " + held + " while the tables loaded");
      return;
    }
    MetadataImage reloaded = done.get();
    LOG.severe(
        "the database is at metadata version "
            + bounds.head()
            + ", behind version "
            + held
            + " that this node had read: it lost committed versions (restored from a backup, or"
            + " failed over to a standby that had not received them). Reloaded the metadata image"
            + " at version "
            + reloaded.version()
            + "; watches past it end with OUT_OF_RANGE. The leader starts a new history before"
            + " its next write if its node read these versions too; if it did not (it started"
            + " after the loss), run SELECT controlplane_start_new_history() in the database"
            + " (docs/operations.md, \"Database loss\")");
    hub.endWatchesAfter(
        reloaded.version(),
        position ->
            "version "
                + position
                + " is no longer in the database, which lost the versions after "
                + reloaded.version()
                + "; take a new snapshot");
  }

  /**
   * Logs the first failure in full and then at most once a minute: the tailer retries every half
   * second, and a failure that lasts (a document another build wrote) would flood the log.
   */
  private void logUnreadable(RuntimeException e) {
    long now = System.nanoTime();
    if (logFailingSince == 0) {
      logFailingSince = now;
      lastFailureLogged = now;
      LOG.log(Level.WARNING, "reading the change log failed; retrying", e);
    } else if (now - lastFailureLogged > TimeUnit.MINUTES.toNanos(1)) {
      lastFailureLogged = now;
      LOG.warning(
          "reading the change log has failed for "
              + TimeUnit.NANOSECONDS.toSeconds(now - logFailingSince)
              + " s; retrying: "
              + (e.getMessage() != null ? e.getMessage() : e));
    }
  }

  private void logReadable() {
    long since = logFailingSince;
    if (since != 0) {
      logFailingSince = 0;
      LOG.info(
          "reading the change log works again, after "
              + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - since)
              + " s");
    }
  }

  private void awaitChange() {
    synchronized (wakeLock) {
      if (!changed) {
        try {
          wakeLock.wait(1000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          running = false;
        }
      }
      changed = false;
    }
  }

  private static void sleepQuietly(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
