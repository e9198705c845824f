package dev.controlplane.metadata.watch;

import dev.controlplane.config.ControlPlaneConfig;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.metadata.log.ChangeLog;
import dev.controlplane.metadata.log.CommitSignal;
import dev.controlplane.metadata.log.LogBounds;
import dev.controlplane.metadata.model.MetadataUpdate;
import dev.controlplane.metadata.snapshot.MetadataImage;
import dev.controlplane.write.CommitListener;
import dev.controlplane.write.StateLoader;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;
import javax.sql.DataSource;

/**
 * Fans the change log out to this node's watchers.
 *
 * <h2>Lifecycle</h2>
 *
 * {@link #start()} after the schema is valid; {@link #stop()} closes every watch with UNAVAILABLE
 * so brokers reconnect (to this node after a restart, or to another).
 *
 * <h2>How updates arrive</h2>
 *
 * On the leader, the write pipeline hands each committed batch over directly ({@link #committed}):
 * its updates and the image after them, with no database round trip; it wakes the watchers with
 * {@link #deliver} once the batch's writers have their answers. On every node one tailer thread
 * also reads updates with versions above {@link #head()} from the table whenever a commit is
 * signalled (NOTIFY from another node) and at least once a second. Both paths accept only the next
 * version, so the window never has a gap and an update arriving both ways counts once. The hub
 * keeps the most recent updates in a window; watchers pull from it, or from the table while they
 * are further behind.
 *
 * <h2>The image</h2>
 *
 * The hub also holds the immutable {@link MetadataImage} at {@link #head()}: loaded from the tables
 * at start (and again if the retained log no longer reaches back to it), then replaced by every
 * accepted update, so snapshots at the head need no database at all.
 *
 * <h2>Slow watchers</h2>
 *
 * Nothing is queued per watcher: a watcher whose transport is not ready simply stops advancing, so
 * writers and other watchers never wait for it. One that refuses updates for longer than {@code
 * watch.stall.timeout} while updates wait for it is closed with RESOURCE_EXHAUSTED and resumes from
 * its last version. A watcher catching up from far behind is not slow as long as it keeps reading.
 */
@ApplicationScoped
public class WatchHub implements CommitSignal, CommitListener {

  private static final Logger LOG = Logger.getLogger(WatchHub.class.getName());

  @Inject ChangeLog changeLog;
  @Inject ControlPlaneConfig config;
  @Inject WatchMetrics metrics;

  @Resource ManagedThreadFactory threadFactory;

  @Resource(lookup = "jdbc/controlplane-direct")
  DataSource dataSource;

  private final Object wakeLock = new Object();
  private final ConcurrentSkipListMap<Long, MetadataUpdate> window = new ConcurrentSkipListMap<>();

  /**
   * 16 pages of 500: about as many updates as the default window, shared by every watcher behind it
   * however many there are.
   */
  private final LogPages logPages =
      new LogPages((after, limit) -> changeLog.readAfter(after, limit), 500, 16, this::logPageRead);

  /**
   * The open watchers, by the thread their deliveries from memory run on (each connection's event
   * loop): a commit wakes each group with one task instead of one hand-off per watcher.
   */
  private final Map<Executor, Set<Watcher>> byThread = new ConcurrentHashMap<>();

  private boolean changed;
  private volatile boolean running;
  private volatile boolean accepting = true;
  private final Object advance = new Object();
  private volatile MetadataImage image = MetadataImage.empty();

  private static final long UNREADABLE_AFTER_NANOS = TimeUnit.SECONDS.toNanos(5);

  /** When the tailer's reads of the change log started failing; 0 while they work. */
  private volatile long logFailingSince;

  private long lastFailureLogged;

  /** The last version this node's pipeline is committing or committed (0: none yet). */
  private volatile long localCommitting;

  private Thread tailer;
  private ExecutorService drainers;
  private ScheduledExecutorService ticker;

  public void start() {
    metrics.register(this);
    image = loadImage();
    running = true;
    drainers = Executors.newFixedThreadPool(2, threadFactory);
    ticker = Executors.newSingleThreadScheduledExecutor(threadFactory);
    long tick = Math.max(100, config.watchProgressInterval().toMillis() / 4);
    ticker.scheduleWithFixedDelay(
        safely(this::requestProgressFromIdle), tick, tick, TimeUnit.MILLISECONDS);
    ticker.scheduleWithFixedDelay(safely(this::cutOffStalled), 100, 100, TimeUnit.MILLISECONDS);
    tailer = threadFactory.newThread(this::tail);
    tailer.setName("watch-tailer");
    tailer.start();
  }

  public void stop() {
    running = false;
    committed();
    if (ticker != null) {
      ticker.shutdownNow();
    }
    closeWatches();
    if (drainers != null) {
      drainers.shutdownNow();
    }
  }

  /**
   * Ends every open watch, telling its broker to resume on another node, and refuses new ones. The
   * first step of a stop: the gRPC server's grace period then waits for no stream that would never
   * end on its own, and brokers hear why rather than a transport's cut.
   */
  public void closeWatches() {
    accepting = false;
    for (Watcher w : watchers().toList()) {
      w.close(
          ControlPlaneException.unavailable(
              "the server is shutting down; resume on another node", null));
    }
  }

  /** Opens a watch delivering every update after {@code fromVersion}, then live ones. */
  public Watch subscribe(long fromVersion, WatchSink sink) {
    if (!running || !accepting) {
      throw ControlPlaneException.unavailable("the server is starting or stopping", null);
    }
    LogBounds bounds = changeLog.bounds();
    if (!bounds.covers(fromVersion)) {
      throw bounds.outOfRange(fromVersion);
    }
    Watcher watcher = new Watcher(this, sink, drainers, fromVersion);
    byThread
        .computeIfAbsent(watcher.deliveryThread(), t -> ConcurrentHashMap.newKeySet())
        .add(watcher);
    watcher.wake();
    return watcher;
  }

  /** The newest version this node has read, contiguous from the start. */
  public long head() {
    return image.version();
  }

  /** The metadata at {@link #head()}. */
  @Override
  public MetadataImage image() {
    return image;
  }

  /** Waits up to {@code millis} for the head to reach {@code version}; the head then. */
  public long awaitHead(long version, long millis) {
    long deadline = System.nanoTime() + millis * 1_000_000;
    while (head() < version && System.nanoTime() < deadline) {
      committed();
      sleepQuietly(5);
    }
    return head();
  }

  @Override
  public void committed(List<MetadataUpdate> updates, MetadataImage after) {
    synchronized (advance) {
      if (updates.get(0).version() != head() + 1) {
        // Already read from the log by the tailer (which woke the watchers), or a gap the tailer
        // must fill from the log.
        if (updates.get(updates.size() - 1).version() > head()) {
          committed();
        }
        return;
      }
      updates.forEach(u -> window.put(u.version(), u));
      image = after;
      trimWindow();
    }
  }

  @Override
  public void deliver() {
    wakeAll();
  }

  public int watcherCount() {
    return byThread.values().stream().mapToInt(Set::size).sum();
  }

  private Stream<Watcher> watchers() {
    return byThread.values().stream().flatMap(Set::stream);
  }

  @Override
  public void committed() {
    synchronized (wakeLock) {
      changed = true;
      wakeLock.notifyAll();
    }
  }

  /**
   * A notification of a commit up to {@code version}: read the log only when this hub neither has
   * that version nor is about to get it from this node's own pipeline ({@link #committing}, then
   * {@link #committed(List, MetadataImage)}), so a leader's watchers never wait for a read of the
   * log. Should the pipeline's batch not reach the hub after all, the tailer's periodic read (every
   * second) or the next batch's version gap makes the hub read the log.
   */
  @Override
  public void committedUpTo(long version) {
    if (version > Math.max(head(), localCommitting)) {
      committed();
    }
  }

  @Override
  public void committing(long lastVersion) {
    localCommitting = lastVersion;
  }

  public MetadataUpdate fromWindow(long version) {
    return window.get(version);
  }

  /** Updates from the log including {@code version}, or what the log holds from there on. */
  List<MetadataUpdate> logPage(long version) {
    return logPages.containing(version);
  }

  private void logPageRead() {
    metrics.logPageRead();
  }

  void remove(Watcher watcher) {
    Set<Watcher> group = byThread.get(watcher.deliveryThread());
    if (group != null) {
      group.remove(watcher);
    }
  }

  private void wakeAll() {
    byThread.forEach(
        (thread, group) -> {
          if (group.isEmpty()) {
            return;
          }
          if (thread == drainers) {
            group.forEach(Watcher::wake); // spread over the drainers
            return;
          }
          try {
            thread.execute(() -> group.forEach(Watcher::drainHere));
          } catch (RuntimeException rejected) {
            group.forEach(Watcher::wake); // a closed loop: each watcher finds out and closes
          }
        });
  }

  void logFailure(RuntimeException e) {
    LOG.log(Level.WARNING, "watch failed", e);
  }

  /**
   * For how long this node has not been able to read the change log, once that is longer than
   * {@link #UNREADABLE_AFTER_NANOS}, for readiness: its watchers get nothing newer meanwhile. Empty
   * while reading works, and during a shorter failure (a database restart). Why is in the log.
   */
  public Optional<Duration> unreadableLog() {
    long since = logFailingSince;
    long failing = System.nanoTime() - since;
    return since != 0 && failing > UNREADABLE_AFTER_NANOS
        ? Optional.of(Duration.ofNanos(failing))
        : Optional.empty();
  }

  private void tail() {
    while (running) {
      awaitChange();
      try {
        if (pullNewUpdates()) {
          wakeAll();
        }
        logReadable();
      } catch (RuntimeException e) {
        logUnreadable(e);
        sleepQuietly(500);
      }
    }
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

  /** Reads everything after {@link #head}; true when the head moved. */
  private boolean pullNewUpdates() {
    long before = head();
    while (running) {
      List<MetadataUpdate> batch = changeLog.readAfter(head(), 1000);
      if (batch.isEmpty()) {
        break;
      }
      if (batch.get(0).version() != head() + 1 && !skipTrimmedHistory(batch.get(0).version())) {
        break;
      }
      synchronized (advance) {
        MetadataImage next = image;
        for (MetadataUpdate update : batch) {
          if (update.version() != next.version() + 1) {
            continue;
          }
          window.put(update.version(), update);
          next = next.replay(update);
        }
        image = next;
        trimWindow();
      }
    }
    return head() != before;
  }

  private void trimWindow() {
    while (window.size() > config.watchWindow()) {
      window.pollFirstEntry();
    }
  }

  /**
   * The first readable version is not the next one. Either history before it was trimmed while this
   * node was not reading (then the image is loaded again from the tables and the hub continues from
   * there: any watcher that needed the trimmed part gets OUT_OF_RANGE), or a commit is not visible
   * yet (then wait for the next round).
   */
  private boolean skipTrimmedHistory(long firstReadable) {
    long retainedFrom = changeLog.bounds().retainedFrom();
    long behind = head();
    if (retainedFrom <= behind + 1) {
      return false;
    }
    MetadataImage reloaded = loadImage();
    synchronized (advance) {
      window.clear();
      logPages.clear();
      image = reloaded;
    }
    metrics.imageReloaded();
    // An operator should know: this node paused or lost the database longer than the retention
    // keeps history, and its watchers resuming inside the trimmed part must take a new snapshot.
    LOG.warning(
        "the change log no longer reaches back to this node's version "
            + behind
            + " (retained from version "
            + retainedFrom
            + "): reloaded the metadata image from the tables at version "
            + reloaded.version()
            + "; watches resuming from a version below "
            + (retainedFrom - 1)
            + " get OUT_OF_RANGE");
    return true;
  }

  private MetadataImage loadImage() {
    try (Connection c = dataSource.getConnection()) {
      return StateLoader.loadImage(c);
    } catch (SQLException e) {
      throw ControlPlaneException.unavailable("cannot load the metadata image", e);
    }
  }

  private void cutOffStalled() {
    long limit = config.watchStallTimeout().toNanos();
    watchers()
        .filter(w -> w.blockedNanos() > limit)
        .forEach(
            w -> {
              metrics.cutOff();
              w.close(
                  new ControlPlaneException(
                      ErrorCode.RESOURCE_EXHAUSTED,
                      "watcher stopped reading while "
                          + (head() - w.position())
                          + " updates waited; resume from version "
                          + w.position()));
            });
  }

  /** Runs every quarter interval; asking at 3/4 of it keeps every gap within the interval. */
  private void requestProgressFromIdle() {
    long interval = config.watchProgressInterval().toNanos() * 3 / 4;
    watchers()
        .filter(w -> w.position() >= head() && w.nanosSinceLastSend() >= interval)
        .forEach(Watcher::requestProgress);
  }

  /**
   * A periodic task that survives its own failures (a scheduled executor drops a task that throws).
   */
  private static Runnable safely(Runnable task) {
    return () -> {
      try {
        task.run();
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "watch housekeeping failed", e);
      }
    };
  }

  private static void sleepQuietly(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
