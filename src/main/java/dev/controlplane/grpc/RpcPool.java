package dev.controlplane.grpc;

import dev.controlplane.error.ControlPlaneException;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads that run gRPC calls which may block (read the database, wait for a write), and who
 * may wait for them. A call that finds {@code queueLimit} tasks already waiting is refused at once
 * with UNAVAILABLE instead of queueing behind them: under a flood of calls the wait, and the heap
 * the waiting requests hold, stay bounded, and each client is told to back off or ask another node
 * rather than left to its deadline.
 *
 * <p>Only tasks that no idle thread is about to take count: a burst of calls that finds threads
 * idle queues for the instant those threads need to wake up, and is not refused for it. The count
 * is read without a lock, so calls admitted at the same instant may pass the limit by as many as
 * arrive together: a bound on a flood, not an exact count.
 */
public final class RpcPool {

  static final int THREADS = 16;

  private final ThreadPoolExecutor pool;
  private final int queueLimit;
  private final AtomicInteger running = new AtomicInteger();
  private volatile Runnable onRefusal = () -> {};

  RpcPool(ThreadFactory threads, int queueLimit) {
    this(THREADS, threads, queueLimit);
  }

  RpcPool(int size, ThreadFactory threads, int queueLimit) {
    this.pool =
        new ThreadPoolExecutor(
            size, size, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), threads) {
          @Override
          protected void beforeExecute(Thread thread, Runnable task) {
            running.incrementAndGet();
          }

          @Override
          protected void afterExecute(Runnable task, Throwable error) {
            running.decrementAndGet();
          }
        };
    this.queueLimit = queueLimit;
  }

  /** Runs tasks with no admission check: the node's own work, and calls already admitted. */
  ExecutorService executor() {
    return pool;
  }

  /**
   * The reason to refuse a new call now, counted as a refusal; empty when it may wait for a thread.
   */
  Optional<String> refusal() {
    int waiting = pool.getQueue().size() - (pool.getMaximumPoolSize() - running.get());
    if (waiting < queueLimit) {
      return Optional.empty();
    }
    onRefusal.run();
    return Optional.of(
        "this node's "
            + pool.getMaximumPoolSize()
            + " gRPC threads are busy and "
            + waiting
            + " tasks wait for them, the most SERVICE_CONTROLPLANE_GRPC_QUEUE_LIMIT ("
            + queueLimit
            + ") allows; nothing was done and nothing was written: retry with backoff, or ask another node");
  }

  /**
   * An executor for work a call moves onto this pool after it was admitted elsewhere (on its event
   * loop): refused with {@code unavailable} as a new call would be.
   */
  Executor admitting() {
    return task -> {
      var why = refusal();
      if (why.isPresent()) {
        throw ControlPlaneException.unavailable(why.get(), null);
      }
      pool.execute(task);
    };
  }

  /** Threads running a task now. */
  public int busy() {
    return running.get();
  }

  /** Tasks waiting for a thread, including any an idle thread is about to take. */
  public int waiting() {
    return pool.getQueue().size();
  }

  /** Runs {@code counter} at every refusal. */
  void countRefusals(Runnable counter) {
    this.onRefusal = counter;
  }
}
