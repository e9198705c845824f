package dev.controlplane.audit;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * Logs the write pipeline's audit JSON lines on a thread of their own, in the order the batches
 * hand them over, so that formatting and logging them (about a fifth of the pipeline thread's CPU
 * under load) does not sit between one batch and the next. The rows are already committed with
 * their changes; only the lines wait here.
 *
 * <p>At most {@value #MAX_RECORDS} records wait, counted by record, not by batch (a batch holds up
 * to 512): a full queue (logging slower than commits) makes the pipeline wait for room, so writes
 * slow down rather than lines being lost or reordered, and the heap they hold stays bounded. {@link
 * #stop} logs whatever is still queued; lines handed over after it are logged by the caller itself.
 */
public final class AuditLines {

  static final int MAX_RECORDS = 16_384;

  private final BlockingQueue<List<AuditRecord>> queue = new LinkedBlockingQueue<>();
  private final Semaphore room;
  private final int maxRecords;
  private final Thread thread;
  private volatile boolean running = true;

  public AuditLines(ThreadFactory threads) {
    this(threads, MAX_RECORDS);
  }

  AuditLines(ThreadFactory threads, int maxRecords) {
    this.maxRecords = maxRecords;
    this.room = new Semaphore(maxRecords);
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
        room.acquire(held(records));
        queue.add(records);
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

  /** The room a batch's records take: a batch larger than the whole room takes all of it. */
  private int held(List<AuditRecord> records) {
    return Math.min(records.size(), maxRecords);
  }

  private void run() {
    while (running || !queue.isEmpty()) {
      try {
        List<AuditRecord> next = queue.poll(100, TimeUnit.MILLISECONDS);
        if (next != null) {
          try {
            next.forEach(AuditLog::emit);
          } finally {
            room.release(held(next));
          }
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
