package dev.controlplane.audit;

import dev.controlplane.config.ControlPlaneConfig;
import dev.controlplane.db.Params;
import dev.controlplane.error.Failures;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;

/**
 * Audit records of token exchanges. An exchange changes nothing and is served by every node from
 * memory, so its record is not a write of the leader's pipeline: the node that served it inserts it
 * over its own pool, off the request's path. {@link #record} logs the JSON line at once and queues
 * the row (at most {@value #CAPACITY} waiting); one thread inserts them in batches of up to {@value
 * #BATCH}, gathering a batch for at most {@value #LINGER_MILLIS} ms after its first row. A full
 * queue (the database far behind, or gone) drops the row, counts it in {@code
 * controlplane.audit.dropped} and says so in the log; the JSON line was written regardless. A crash
 * loses at most the rows still queued, never an exchange's JSON line.
 */
@ApplicationScoped
public class ExchangeAudit {

  static final int CAPACITY = 10_000;
  static final int BATCH = 500;

  /**
   * Rows are not read until they are in the table, so waiting a little for more costs nobody: at a
   * few hundred exchanges a second, inserting whatever had queued meant a commit (and a pooled
   * connection) per two or three rows, CPU taken from the exchanges on the same machine.
   */
  static final long LINGER_MILLIS = 20;

  private static final Logger LOG = Logger.getLogger(ExchangeAudit.class.getName());
  private static final long RETRY_MILLIS = 1000;
  private static final int ATTEMPTS = 3;
  private static final long WARN_EVERY_NANOS = 10_000_000_000L;

  private static final Metadata DROPPED =
      Metadata.builder()
          .withName("controlplane.audit.dropped")
          .withDescription(
              "Token exchange audit rows not stored: queue full or database failing (the JSON"
                  + " line was still logged)")
          .build();

  @Inject ControlPlaneConfig config;
  @Inject MetricRegistry registry;

  @Resource(lookup = "jdbc/controlplane-direct")
  DataSource dataSource;

  @Resource ManagedThreadFactory threads;

  private final BlockingQueue<AuditRecord> queue = new ArrayBlockingQueue<>(CAPACITY);

  /** When the last drop was logged: at most one warning per 10 s, the counter has the rest. */
  private final AtomicLong lastWarning = new AtomicLong();

  private Counter dropped;
  private volatile boolean running;
  private Thread writer;

  /** Instantiates the bean at start, so the counter is exported at 0 before any exchange. */
  void atStart(@Observes @Initialized(ApplicationScoped.class) Object event) {}

  @PostConstruct
  void init() {
    dropped = registry.counter(DROPPED);
  }

  /** Records an exchange's outcome: the JSON line now, the row soon. */
  public void record(AuditEntry entry, String result, String reason, Actor actor) {
    AuditRecord record =
        new AuditRecord(
            Instant.now().truncatedTo(ChronoUnit.MICROS),
            entry,
            result,
            reason,
            actor,
            config.nodeId(),
            null);
    AuditLog.emit(record);
    startOnce();
    if (!queue.offer(record)) {
      drop(1, "the queue is full");
    }
  }

  private synchronized void startOnce() {
    if (writer == null) {
      running = true;
      writer = threads.newThread(this::loop);
      writer.setName("audit-exchange-writer");
      writer.setDaemon(true);
      writer.start();
    }
  }

  @PreDestroy
  synchronized void stop() {
    running = false;
    if (writer != null) {
      writer.interrupt();
    }
    List<AuditRecord> left = new ArrayList<>();
    queue.drainTo(left);
    if (!left.isEmpty()) {
      insertOrDrop(left);
    }
  }

  private void loop() {
    while (running) {
      List<AuditRecord> batch = new ArrayList<>();
      try {
        batch.add(queue.take());
        gather(batch);
      } catch (InterruptedException e) {
        if (!batch.isEmpty()) {
          insertOrDrop(batch);
        }
        return;
      }
      insertOrDrop(batch);
    }
  }

  /**
   * Adds queued rows to {@code batch} until it is full or {@link #LINGER_MILLIS} have passed. The
   * thread sleeps through the wait instead of waiting on the queue: an exchange then hands its row
   * over without waking it, where waiting on the queue woke it for each row (a system call and a
   * context switch per exchange, at thousands a second).
   */
  private void gather(List<AuditRecord> batch) throws InterruptedException {
    if (queue.size() < BATCH - batch.size()) {
      Thread.sleep(LINGER_MILLIS);
    }
    queue.drainTo(batch, BATCH - batch.size());
  }

  /**
   * A value the database refuses (SQLSTATE 22) fails the whole batch, and would fail it on every
   * attempt: the rows are then inserted one by one, so only the row holding it is dropped, not the
   * records of other callers batched with it.
   */
  void insertOrDrop(List<AuditRecord> batch) {
    for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
      try {
        insert(batch);
        return;
      } catch (SQLException e) {
        if (refusesAValue(e)) {
          if (batch.size() == 1) {
            drop(1, "the database refused a value of it: " + e.getMessage());
          } else {
            batch.forEach(row -> insertOrDrop(List.of(row)));
          }
          return;
        }
        LOG.warning("storing " + batch.size() + " exchange audit row(s) failed: " + e.getMessage());
        if (attempt < ATTEMPTS && !pause()) {
          break;
        }
      }
    }
    drop(batch.size(), "the database refused them");
  }

  /** A batch's failure names its cause in the chain of next exceptions, not of causes. */
  private static boolean refusesAValue(SQLException e) {
    for (SQLException next = e; next != null; next = next.getNextException()) {
      if (Failures.isDataException(next)) {
        return true;
      }
    }
    return false;
  }

  private void insert(List<AuditRecord> batch) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(AuditLog.INSERT)) {
      for (AuditRecord r : batch) {
        Params.bind(ps, AuditLog.params(r));
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  private static boolean pause() {
    try {
      Thread.sleep(RETRY_MILLIS);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private void drop(int rows, String why) {
    dropped.inc(rows);
    long now = System.nanoTime();
    long last = lastWarning.get();
    if (last != 0 && now - last < WARN_EVERY_NANOS || !lastWarning.compareAndSet(last, now)) {
      return;
    }
    LOG.warning(
        rows
            + " token exchange audit row(s) dropped: "
            + why
            + " (their JSON lines on "
            + AuditLog.LOGGER
            + " were written; see controlplane.audit.dropped)");
  }
}
