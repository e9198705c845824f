package dev.controlplane.metadata.watch;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.metadata.model.MetadataUpdate;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One open watch. It remembers the last version it handed to its sink and pulls what follows from
 * the hub's window, or from the shared pages of the log while it catches up. Work on a watcher runs
 * one task at a time ({@link #scheduled}), so the sink is never called concurrently: on the sink's
 * own thread ({@link WatchSink#deliveryExecutor()}) while what it needs is in memory, on the hub's
 * executor when it must read the log, which may block.
 */
final class Watcher implements Watch {

  private final WatchHub hub;
  private final WatchSink sink;
  private final Executor fromMemory;
  private final Executor fromLog;
  private final AtomicBoolean scheduled = new AtomicBoolean();

  /**
   * The log page the running task sends from; dropped when the task ends, so a watcher waiting for
   * its transport holds no updates (the page stays shared in the hub's {@link LogPages}).
   */
  private List<MetadataUpdate> page;

  /** Set by {@link #next} for the running task only; read and reset by that same task. */
  private boolean logNeeded;

  private volatile long position;
  private volatile boolean closed;
  private volatile boolean progressDue;
  private volatile long lastSentNanos = System.nanoTime();

  /** When the sink stopped accepting while updates were waiting; 0 while it keeps up. */
  private volatile long blockedSinceNanos;

  Watcher(WatchHub hub, WatchSink sink, Executor executor, long fromVersion) {
    this.hub = hub;
    this.sink = sink;
    this.fromLog = executor;
    Executor own = sink.deliveryExecutor();
    this.fromMemory = own != null ? own : executor;
    this.position = fromVersion;
  }

  long position() {
    return position;
  }

  boolean isReady() {
    return sink.ready();
  }

  long nanosSinceLastSend() {
    return System.nanoTime() - lastSentNanos;
  }

  /**
   * How long the sink has refused updates that are waiting for it; 0 when it is not blocked. A sink
   * that is ready is not blocked, whatever keeps the next update from it: a read of the log that
   * waits for a thread of the hub is the server's delay, and a watcher catching up from far behind
   * is not slow as long as it keeps reading.
   */
  long blockedNanos() {
    long since = blockedSinceNanos;
    return since == 0 || position >= hub.head() || sink.ready() ? 0 : System.nanoTime() - since;
  }

  @Override
  public void wake() {
    schedule(false);
  }

  /** Where this watcher's deliveries from memory run. */
  Executor deliveryThread() {
    return fromMemory;
  }

  /**
   * Delivers on the calling thread, which must be {@link #deliveryThread()}; nothing when a task of
   * this watcher is scheduled already (it will see the same updates).
   */
  void drainHere() {
    if (!closed && scheduled.compareAndSet(false, true)) {
      drain(fromMemory == fromLog);
    }
  }

  private void schedule(boolean mayBlock) {
    if (closed || !scheduled.compareAndSet(false, true)) {
      return;
    }
    try {
      if (mayBlock || fromMemory == fromLog) {
        fromLog.execute(() -> drain(true));
      } else {
        fromMemory.execute(() -> drain(false));
      }
    } catch (RuntimeException rejected) {
      scheduled.set(false);
      close(ControlPlaneException.unavailable("the server is shutting down", rejected));
    }
  }

  void requestProgress() {
    progressDue = true;
    wake();
  }

  @Override
  public void cancel() {
    closed = true;
    hub.remove(this);
  }

  /** See {@link WatchSink#credentialsWithdrawn()}. */
  java.util.Optional<String> credentialsWithdrawn() {
    return sink.credentialsWithdrawn();
  }

  /** Ends the watch; safe from any thread, idempotent. */
  void close(ControlPlaneException reason) {
    if (closed) {
      return;
    }
    closed = true;
    hub.remove(this);
    try {
      sink.close(reason);
    } catch (RuntimeException alreadyGone) {
      // The client went away first; nothing left to tell it.
    }
  }

  private void drain(boolean mayBlock) {
    boolean needsLog = false;
    try {
      if (sink.ready()) {
        // The client read since the sink blocked, if it did: only a refusal that lasts counts.
        blockedSinceNanos = 0;
      }
      while (!closed && sink.ready()) {
        MetadataUpdate next = next(mayBlock);
        if (next == null) {
          needsLog = logNeeded;
          logNeeded = false;
          break;
        }
        sink.send(next);
        position = next.version();
        lastSentNanos = System.nanoTime();
        blockedSinceNanos = 0;
        progressDue = false;
      }
      if (!closed && !sink.ready() && position < hub.head() && blockedSinceNanos == 0) {
        blockedSinceNanos = System.nanoTime();
      }
      if (progressDue && !closed && sink.ready() && position >= hub.head()) {
        progressDue = false;
        // A notice tells the broker it is current, which this node does not know while it cannot
        // read the log; the next check for idle watchers asks again.
        if (hub.headIsCurrent()) {
          sink.progress(position);
          lastSentNanos = System.nanoTime();
        }
      }
    } catch (ControlPlaneException e) {
      close(e);
    } catch (RuntimeException e) {
      hub.logFailure(e);
      close(
          ControlPlaneException.unavailable(
              "the watch failed on the server; resume from your version", e));
    } finally {
      page = null;
      scheduled.set(false);
    }
    if (!closed && sink.ready() && (needsLog || position < hub.head() || progressDue)) {
      schedule(needsLog);
    }
  }

  /**
   * The update after {@link #position}, or null when the watcher is at the head, or when it must be
   * read from the log and {@code mayBlock} is false ({@link #logNeeded} then says so).
   */
  private MetadataUpdate next(boolean mayBlock) {
    long wanted = position + 1;
    if (wanted > hub.head()) {
      return null;
    }
    MetadataUpdate inPage = LogPages.find(page, wanted);
    if (inPage != null) {
      return inPage;
    }
    MetadataUpdate inWindow = hub.fromWindow(wanted);
    if (inWindow != null) {
      return inWindow;
    }
    if (!mayBlock) {
      logNeeded = true;
      return null;
    }
    page = hub.logPage(wanted);
    MetadataUpdate read = LogPages.find(page, wanted);
    if (read == null) {
      throw new ControlPlaneException(
          ErrorCode.OUT_OF_RANGE,
          "version " + position + " is older than the retained history; take a new snapshot");
    }
    return read;
  }
}
