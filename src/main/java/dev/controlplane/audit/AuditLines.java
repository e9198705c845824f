package dev.controlplane.audit;

import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * Logs the write pipeline's audit JSON lines on a thread of their own, in the order the batches
 * hand them over, so that formatting and logging them (about a fifth of the pipeline thread's CPU
 * under load) does not sit between one batch and the next. The rows are already committed with
 * their changes; only the lines wait here.
 *
 * <p>A full queue (logging slower than commits) makes the pipeline wait for room: writes slow down
 * rather than lines being lost or reordered. {@link #stop} logs whatever is still queued; lines
 * handed over after it are logged by the caller itself.
 */
public final class AuditLines {

  private static final int CAPACITY = 4096;

  private final BlockingQueue<List<AuditRecord>> queue = new ArrayBlockingQueue<>(CAPACITY);
  private final Thread thread;
  private volatile boolean running = true;

  public AuditLines(ThreadFactory threads) {
    thread = threads.newThread(this::run);
    thread.setName("audit-lines");
    thread.start();
  }

  /** Queues the records' lines, waiting for room when the queue is full. */
  public void emit(List<AuditRecord> records) {
    if (records.isEmpty()) {
      return;
    }
    if (running) {
      try {
        queue.put(records);
        return;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    records.forEach(AuditLog::emit);
  }

  /** Logs what is queued, then ends the thread. */
  public void stop() {
    running = false;
    try {
      thread.join(TimeUnit.SECONDS.toMillis(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void run() {
    while (running || !queue.isEmpty()) {
      try {
        List<AuditRecord> next = queue.poll(100, TimeUnit.MILLISECONDS);
        if (next != null) {
          next.forEach(AuditLog::emit);
        }
      } catch (InterruptedException e) {
        running = false;
      } catch (RuntimeException e) {
        // A failing log handler must not stop the lines that follow.
        java.util.logging.Logger.getLogger(AuditLines.class.getName())
            .log(java.util.logging.Level.WARNING, "logging an audit line failed", e);
      }
    }
  }
}
