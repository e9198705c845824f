package dev.controlplane.metadata.watch;

import dev.controlplane.cache.TenantChanges;
import dev.controlplane.config.ClusterConfig;
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
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;
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
 * {@link #deliver} once the batch's writers have their answers. On every node a {@link LogTailer}
 * also reads updates with versions above {@link #head()} from the table whenever a commit is
 * signalled (NOTIFY from another node) and at least once a second. Both paths advance the {@link
 * HeadImage}, only to the next version. Watchers pull from its window of the most recent updates,
 * or from the table while they are further behind.
 *
 * <h2>The image</h2>
 *
 * The hub also holds the immutable {@link MetadataImage} at {@link #head()}: loaded from the tables
 * at start (and again if the retained log no longer reaches back to it, or the database went back
 * behind it), then replaced by every accepted update, so snapshots at the head need no database at
 * all. It remembers the highest version it ever held ({@link #highestSeen}), across restarts too
 * ({@link HighestSeenMemory}): above the database's head only when the database lost versions this
 * node read, which a leader must never give to other changes.
 *
 * <h2>Slow watchers, and a log it cannot read</h2>
 *
 * A watcher that stalls is cut off, and every watch ends while this node cannot read the change
 * log: {@link WatchHousekeeping} says when and why.
 */
@ApplicationScoped
public class WatchHub implements CommitSignal, CommitListener {

  private static final Logger LOG = Logger.getLogger(WatchHub.class.getName());

  private static final String SHUTTING_DOWN = "the server is shutting down; resume on another node";

  static final String LOG_UNREADABLE =
      "this node cannot read the change log; resume on another node";

  @Inject ChangeLog changeLog;
  @Inject ControlPlaneConfig config;
  @Inject ClusterConfig cluster;
  @Inject WatchMetrics metrics;
  @Inject TenantChanges tenants;

  @Resource ManagedThreadFactory threadFactory;

  @Resource(lookup = "jdbc/controlplane-direct")
  DataSource dataSource;

  /**
   * 16 pages of 500: about as many updates as the default window, shared by every watcher behind it
   * however many there are.
   */
  private final LogPages logPages =
      new LogPages((after, limit) -> changeLog.readAfter(after, limit), 500, 16, this::logPageRead);

  private final HeadImage head = new HeadImage(() -> config.watchWindow(), logPages::clear);

  private final WatcherGroups watchers = new WatcherGroups();

  private volatile boolean running;
  private volatile boolean accepting = true;

  /**
   * Held to register a watcher and to stop accepting them, so that a watch either is registered
   * before {@link #closeWatches()} lists the watches to close, or is refused.
   */
  private final Object registration = new Object();

  /** The last version this node's pipeline is committing or committed (0: none yet). */
  private volatile long localCommitting;

  /** Where the highest version seen outlives a restart, in the node's data directory. */
  static final String HIGHEST_SEEN_FILE = "highest-seen-version";

  private HighestSeenMemory memory;
  private LogTailer tailer;
  private ExecutorService drainers;
  private ScheduledExecutorService ticker;

  public void start() {
    metrics.register(this);
    memory =
        new HighestSeenMemory(
            cluster.raftDataDir().resolve(HIGHEST_SEEN_FILE), changeLog.databaseId());
    long recalled = memory.recalled();
    head.replace(loadImage());
    if (head.recall(recalled)) {
      memory.warnAhead(head.version());
    }
    open(
        Executors.newFixedThreadPool(2, threadFactory),
        new LogTailer(this, changeLog, tenants, metrics, LogTailer.UNREADABLE_AFTER));
    ticker = Executors.newSingleThreadScheduledExecutor(threadFactory);
    new WatchHousekeeping(this, config, metrics, WatchHousekeeping.WATCHES_END_AFTER)
        .schedule(ticker);
    ticker.scheduleWithFixedDelay(
        WatchHousekeeping.safely(this::rememberHighestSeen), 1, 1, TimeUnit.SECONDS);
    tailer.start(threadFactory);
  }

  /**
   * Takes watches from now on: {@code logReaders} run the watchers' reads of the log, {@code
   * tailer} keeps the head in step with it. Apart from {@link #start()}, which needs a database and
   * a container, so that tests run a hub on executors and a log of their own.
   */
  void open(ExecutorService logReaders, LogTailer tailer) {
    this.drainers = logReaders;
    this.tailer = tailer;
    running = true;
  }

  public void stop() {
    running = false;
    if (tailer != null) {
      tailer.stop();
    }
    if (ticker != null) {
      ticker.shutdownNow();
    }
    if (memory != null) {
      rememberHighestSeen();
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
    synchronized (registration) {
      accepting = false;
    }
    closeAll(SHUTTING_DOWN);
  }

  /** Opens a watch delivering every update after {@code fromVersion}, then live ones. */
  public Watch subscribe(long fromVersion, WatchSink sink) {
    refuseUnlessAccepting();
    LogBounds bounds = changeLog.bounds();
    if (!bounds.covers(fromVersion)) {
      throw bounds.outOfRange(fromVersion);
    }
    Watcher watcher = new Watcher(this, sink, drainers, fromVersion);
    synchronized (registration) {
      // Again: a stop may have closed the watches while the bounds were read, and this one would
      // stay open past its close pass.
      refuseUnlessAccepting();
      watchers.add(watcher);
    }
    watcher.wake();
    return watcher;
  }

  private void refuseUnlessAccepting() {
    if (!running) {
      throw ControlPlaneException.unavailable("the server is starting or stopping", null);
    }
    if (!accepting) {
      throw ControlPlaneException.unavailable(SHUTTING_DOWN, null);
    }
    if (unreadableLog().isPresent()) {
      throw ControlPlaneException.unavailable(LOG_UNREADABLE, null);
    }
  }

  /**
   * Ends, as unauthenticated, every watch whose credentials have been withdrawn since it opened: a
   * revoked broker does not keep receiving metadata on a stream it opened before.
   */
  void closeWithdrawn() {
    watchers.close(
        w -> w.credentialsWithdrawn().isPresent(),
        w ->
            new ControlPlaneException(
                ErrorCode.INVALID_TOKEN,
                w.credentialsWithdrawn().orElse("the credentials are no longer accepted")));
  }

  void closeAll(String why) {
    watchers.close(w -> true, w -> ControlPlaneException.unavailable(why, null));
  }

  /** The newest version this node has read, contiguous from the start. */
  public long head() {
    return head.version();
  }

  /** The metadata at {@link #head()}. */
  @Override
  public MetadataImage image() {
    return head.image();
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
    // Not taken: already read from the log by the tailer (which woke the watchers), or a gap the
    // tailer must fill from the log.
    if (!head.takeCommitted(updates, after) && updates.get(updates.size() - 1).version() > head()) {
      committed();
    }
  }

  @Override
  public void restarted(MetadataImage image) {
    replace(image);
    // Watchers behind it find nothing to read and end with OUT_OF_RANGE.
    wakeAll();
  }

  @Override
  public void deliver() {
    wakeAll();
  }

  public int watcherCount() {
    return watchers.count();
  }

  Stream<Watcher> watchers() {
    return watchers.all();
  }

  @Override
  public void committed() {
    LogTailer t = tailer;
    if (t != null) {
      t.signal();
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
    return head.fromWindow(version);
  }

  /** Updates from the log including {@code version}, or what the log holds from there on. */
  List<MetadataUpdate> logPage(long version) {
    return logPages.containing(version);
  }

  private void logPageRead() {
    metrics.logPageRead();
  }

  void remove(Watcher watcher) {
    watchers.remove(watcher);
  }

  void wakeAll() {
    watchers.wakeAll(drainers);
  }

  void logFailure(RuntimeException e) {
    LOG.log(Level.WARNING, "watch failed", e);
  }

  /**
   * For how long this node has not been able to read the change log, once that is longer than 5 s,
   * for readiness: new watches are refused meanwhile. Empty while reading works, and during a
   * shorter failure (a database restart). Why is in the log.
   */
  public Optional<Duration> unreadableLog() {
    LogTailer t = tailer;
    return t == null ? Optional.empty() : t.unreadableFor();
  }

  /** For how long reads of the change log have failed; empty while the last one worked. */
  Optional<Duration> logFailingFor() {
    LogTailer t = tailer;
    return t == null ? Optional.empty() : t.failingFor();
  }

  /**
   * Whether this node's last read of the change log worked, so that its head is as new as what the
   * log held then: what a progress notice tells a watcher.
   */
  boolean headIsCurrent() {
    return logFailingFor().isEmpty();
  }

  /** Takes updates read from the log, starting with the one after the head; later ones follow. */
  void append(List<MetadataUpdate> batch) {
    head.append(batch);
  }

  /**
   * Ends every watch past {@code version} with OUT_OF_RANGE, saying {@code why} for its position.
   */
  void endWatchesAfter(long version, LongFunction<String> why) {
    watchers.close(
        w -> w.position() > version,
        w -> new ControlPlaneException(ErrorCode.OUT_OF_RANGE, why.apply(w.position())));
  }

  /**
   * The image from the tables in place of the one held; returns it. Empty when another image took
   * the held one's place while the tables were read (loading 100,000 streams takes seconds): this
   * node's pipeline started a new history, or committed on it, and its image is newer than what was
   * read.
   */
  Optional<MetadataImage> reload() {
    MetadataImage held = head.image();
    MetadataImage reloaded = loadImage();
    if (!head.replaceIfStill(held, reloaded)) {
      return Optional.empty();
    }
    metrics.imageReloaded();
    return Optional.of(reloaded);
  }

  /** {@code with} in place of the image held, without the window and pages of the one before. */
  private void replace(MetadataImage with) {
    head.replace(with);
    metrics.imageReloaded();
  }

  @Override
  public long highestSeen() {
    return head.highestSeen();
  }

  private void rememberHighestSeen() {
    memory.remember(head.highestSeen());
  }

  private MetadataImage loadImage() {
    try (Connection c = dataSource.getConnection()) {
      return StateLoader.loadImage(c);
    } catch (SQLException e) {
      throw ControlPlaneException.unavailable("cannot load the metadata image", e);
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
