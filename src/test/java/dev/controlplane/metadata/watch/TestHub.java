package dev.controlplane.metadata.watch;

import dev.controlplane.config.ControlPlaneConfig;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.metadata.log.ChangeLog;
import dev.controlplane.metadata.log.LogBounds;
import dev.controlplane.metadata.model.MetadataUpdate;
import dev.controlplane.metadata.model.Namespace;
import dev.controlplane.metadata.model.UpdateType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

/**
 * A watch hub without a database or a container, for tests: its change log, its settings, the
 * executor of its reads of the log and the tailer that keeps it current are the test's.
 */
final class TestHub {

  final Log log;
  final Settings settings = new Settings();
  final WatchHub hub = new WatchHub();
  final LogTailer tailer;
  final WatchHousekeeping housekeeping;

  /**
   * An open hub at version 0; once reads of the log have failed for {@code unreadableAfter}, it
   * refuses new watches and ends those open.
   */
  TestHub(Log log, ExecutorService logReaders, Duration unreadableAfter) {
    this.log = log;
    hub.changeLog = log;
    hub.config = settings;
    hub.metrics = new WatchMetrics();
    tailer = new LogTailer(hub, log, null, hub.metrics, unreadableAfter);
    housekeeping = new WatchHousekeeping(hub, settings, hub.metrics, unreadableAfter);
    hub.open(logReaders, tailer);
  }

  /** Commits versions up to {@code head} and hands them to the hub, as the tailer would. */
  TestHub advanceTo(long head) {
    long from = hub.head() + 1;
    log.head = head;
    hub.append(updates(from, head));
    return this;
  }

  static List<MetadataUpdate> updates(long from, long to) {
    return LongStream.rangeClosed(from, to).mapToObj(TestHub::update).toList();
  }

  static MetadataUpdate update(long version) {
    return new MetadataUpdate(
        version, UpdateType.CREATE, new Namespace("acme", "ns" + version, "", null, version), null);
  }

  /** Versions 1 to {@code head}, all retained; reads throw {@link #failure} while it is set. */
  static class Log extends ChangeLog {
    volatile long head;
    volatile RuntimeException failure;

    @Override
    public LogBounds bounds() {
      failIfSet();
      return new LogBounds(head, 1);
    }

    @Override
    public List<MetadataUpdate> readAfter(long after, int limit) {
      failIfSet();
      return updates(after + 1, head).stream().limit(limit).toList();
    }

    private void failIfSet() {
      RuntimeException f = failure;
      if (f != null) {
        throw f;
      }
    }
  }

  /** The watch settings, as small as a test needs them. */
  static final class Settings extends ControlPlaneConfig {
    volatile int window = 10_000;
    volatile Duration stallTimeout = Duration.ofSeconds(30);
    volatile Duration progressInterval = Duration.ofSeconds(10);

    @Override
    public int watchWindow() {
      return window;
    }

    @Override
    public Duration watchStallTimeout() {
      return stallTimeout;
    }

    @Override
    public Duration watchProgressInterval() {
      return progressInterval;
    }
  }

  /** A transport that is ready while the test says so, and remembers what it was given. */
  static class Sink implements WatchSink {
    private final Executor callers = Runnable::run;
    volatile boolean ready = true;
    final List<Long> sent = new ArrayList<>();
    final List<Long> progress = new ArrayList<>();
    volatile ControlPlaneException closedWith;

    @Override
    public boolean ready() {
      return ready && closedWith == null;
    }

    @Override
    public synchronized void send(MetadataUpdate update) {
      sent.add(update.version());
    }

    @Override
    public synchronized void progress(long version) {
      progress.add(version);
    }

    @Override
    public void close(ControlPlaneException reason) {
      closedWith = reason;
    }

    /** Deliveries from memory run on the caller's thread, as if it were the transport's. */
    @Override
    public Executor deliveryExecutor() {
      return callers;
    }
  }

  /** Runs each task on the caller's thread. */
  static ExecutorService direct() {
    return new Tasks(true);
  }

  /** Takes tasks and never runs them: every thread of the hub's log pool is busy. */
  static ExecutorService busy() {
    return new Tasks(false);
  }

  private static final class Tasks extends AbstractExecutorService {
    private final boolean run;

    Tasks(boolean run) {
      this.run = run;
    }

    @Override
    public void execute(Runnable task) {
      if (run) {
        task.run();
      }
    }

    @Override
    public void shutdown() {}

    @Override
    public List<Runnable> shutdownNow() {
      return List.of();
    }

    @Override
    public boolean isShutdown() {
      return false;
    }

    @Override
    public boolean isTerminated() {
      return false;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
      return true;
    }
  }
}
