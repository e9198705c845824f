package dev.controlplane.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class AuditLinesTest {

  private final Logger logger = Logger.getLogger(AuditLog.LOGGER);
  private final List<String> logged = new CopyOnWriteArrayList<>();
  private final Handler capture =
      new Handler() {
        @Override
        public void publish(LogRecord r) {
          logged.add(r.getMessage());
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };

  @BeforeEach
  void capture() {
    logger.addHandler(capture);
  }

  @AfterEach
  void release() {
    logger.removeHandler(capture);
  }

  private static AuditRecord record(int n) {
    Actor actor = new Actor("p" + n, Actor.USER, "192.0.2.1", "test");
    return new AuditRecord(
        Instant.EPOCH,
        AuditEntry.of("metadata", "tenant.create", "create", "t" + n),
        AuditRecord.SUCCESS,
        null,
        actor,
        "cp1",
        (long) n);
  }

  @Test
  void linesAreLoggedInTheOrderTheBatchesHandedThemOverAndStopLogsWhatIsQueued() {
    AuditLines lines = new AuditLines(Thread::new);
    List<List<AuditRecord>> batches =
        IntStream.range(0, 200)
            .mapToObj(b -> List.of(record(3 * b), record(3 * b + 1), record(3 * b + 2)))
            .toList();
    batches.forEach(lines::emit);
    lines.stop();

    List<String> expected = batches.stream().flatMap(List::stream).map(AuditLog::line).toList();
    assertThat(logged).containsExactlyElementsOf(expected);
  }

  @Test
  void linesHandedOverAfterStopAreLoggedByTheCaller() {
    AuditLines lines = new AuditLines(Thread::new);
    lines.stop();
    lines.emit(List.of(record(1)));
    assertThat(logged).containsExactly(AuditLog.line(record(1)));
  }

  @Test
  void aWriterWaitsWhileAsManyRecordsAsTheLimitWaitToBeLoggedNotBatches() throws Exception {
    CountDownLatch logging = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Handler stall =
        new Handler() {
          @Override
          public void publish(LogRecord r) {
            logging.countDown();
            try {
              release.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    logger.addHandler(stall);
    try {
      AuditLines lines = new AuditLines(Thread::new, 4);
      lines.emit(List.of(record(1), record(2), record(3)));
      assertThat(logging.await(10, TimeUnit.SECONDS)).isTrue();
      lines.emit(List.of(record(4)));
      // Two batches, four records: the fifth waits for room although only two batches are queued.
      CompletableFuture<Void> fifth =
          CompletableFuture.runAsync(() -> lines.emit(List.of(record(5))));
      Thread.sleep(300);
      assertThat(fifth).isNotDone();

      release.countDown();
      fifth.get(10, TimeUnit.SECONDS);
      lines.stop();
    } finally {
      release.countDown();
      logger.removeHandler(stall);
    }
    assertThat(logged)
        .containsExactly(
            AuditLog.line(record(1)),
            AuditLog.line(record(2)),
            AuditLog.line(record(3)),
            AuditLog.line(record(4)),
            AuditLog.line(record(5)));
  }
}
