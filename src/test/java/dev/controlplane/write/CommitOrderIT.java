package dev.controlplane.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.audit.Actor;
import dev.controlplane.audit.AuditLines;
import dev.controlplane.cache.TenantChanges;
import dev.controlplane.cluster.WriteGuard;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.error.LeaderHint;
import dev.controlplane.it.support.TestDatabase;
import dev.controlplane.metadata.codec.ResourceCodec;
import dev.controlplane.metadata.log.WriteMode;
import dev.controlplane.metadata.model.MetadataUpdate;
import dev.controlplane.metadata.model.Tenant;
import dev.controlplane.metadata.snapshot.MetadataImage;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a committed batch tells whom, and in which order, against a real PostgreSQL: the node's
 * image first (so a read on the node sees the write before its writer hears of it), then the
 * writers, then the watchers, so that no writer's answer waits for the deliveries to every watcher.
 * A database of its own, where this runner holds the term.
 */
class CommitOrderIT {

  private static final String URL = TestDatabase.url(TestDatabase.name() + "_empty");
  private static final long TERM = 7;
  private static final Actor OPERATOR = new Actor("operator", Actor.USER, "127.0.0.1", "test");

  private final List<String> events = new CopyOnWriteArrayList<>();

  @BeforeEach
  void database() throws Exception {
    TestDatabase.resetAndMigrate(URL);
    try (Connection c = DriverManager.getConnection(URL, TestDatabase.USER, TestDatabase.PASSWORD);
        Statement st = c.createStatement()) {
      st.execute("UPDATE cluster_state SET leader_term = " + TERM + " WHERE id = 1");
    }
  }

  @Test
  void theImageAdvancesThenTheWriterIsAnsweredThenTheWatchersAreWoken() throws Exception {
    CommitListener listener =
        new LatestImage() {
          @Override
          public void committing(long lastVersion) {
            if (lastVersion > 0) {
              events.add("committing " + lastVersion);
            }
          }

          @Override
          public void committed(List<MetadataUpdate> updates, MetadataImage after) {
            super.committed(updates, after);
            events.add("image at " + after.version());
          }

          @Override
          public void deliver() {
            events.add("watchers woken");
          }
        };
    PipelineConnection connection = new PipelineConnection(new PipelineTestConfig(URL));
    AuditLines lines = new AuditLines(Thread::new);
    BatchRunner runner = runner(connection, listener, lines);
    CompletableFuture<Object> answer = new CompletableFuture<>();
    // Runs on the pipeline's thread the moment the writer is answered, as an adapter's callback.
    answer.whenComplete((outcome, error) -> events.add("writer answered"));
    Operation<Object> createTenant = tenant("acme");

    try {
      runner.run(List.of(new Pending<>(createTenant, WriteMode.COMMIT, answer, OPERATOR)), TERM);
    } finally {
      connection.close();
      lines.stop();
    }

    assertThat(answer).isCompleted().isNotCompletedExceptionally();
    assertThat(events)
        .containsExactly("committing 1", "image at 1", "writer answered", "watchers woken");
    assertThat(TestDatabase.logRows(URL, 0)).hasSize(1);
  }

  @Test
  void aCommittedBatchIsAnsweredWithItsOutcomeEvenWhenHandingItToTheWatchersFails()
      throws Exception {
    // The hub failing to take a batch must not tell its writers that a committed write failed:
    // they would retry a write that is already there. The watchers catch up from the log.
    CommitListener listener =
        new LatestImage() {
          @Override
          public void committed(List<MetadataUpdate> updates, MetadataImage after) {
            if (after.version() == 1) {
              throw new IllegalStateException("the hub broke");
            }
            super.committed(updates, after);
          }
        };
    PipelineConnection connection = new PipelineConnection(new PipelineTestConfig(URL));
    AuditLines lines = new AuditLines(Thread::new);
    BatchRunner runner = runner(connection, listener, lines);
    CompletableFuture<Object> first = new CompletableFuture<>();
    CompletableFuture<Object> second = new CompletableFuture<>();
    try {
      runner.run(List.of(new Pending<>(tenant("acme"), WriteMode.COMMIT, first, OPERATOR)), TERM);
      runner.run(List.of(new Pending<>(tenant("zeta"), WriteMode.COMMIT, second, OPERATOR)), TERM);
    } finally {
      connection.close();
      lines.stop();
    }

    assertThat(first).isCompleted().isNotCompletedExceptionally();
    assertThat(second).isCompleted().isNotCompletedExceptionally();
    assertThat(TestDatabase.logRows(URL, 0))
        .extracting(TestDatabase.LogRow::version)
        .containsExactly(1L, 2L);
  }

  @Test
  void aBatchReplayedOneByOneAfterADataErrorAnswersTheRestWithTheNewTermsRefusal()
      throws Exception {
    // A constraint violation makes the runner replay the batch one operation at a time. When one
    // of those lone commits is fenced because another node claimed the term, the rest must be
    // refused as not_leader too, not fail on the state the fencing dropped.
    Operation<Object> violates =
        write -> {
          write.put(new Tenant("first", "", null, null, 0), null);
          // A CHECK violation the in-memory checks never see (a side record, written by hand).
          write.sql("INSERT INTO tenants (name, version, max_streams) VALUES ('sidecar', 1, -1)");
          return null;
        };
    AtomicInteger applied = new AtomicInteger();
    Operation<Object> claimedUnderneath =
        write -> {
          if (applied.incrementAndGet() == 2) {
            // Its lone replay: another node takes the term before this batch commits.
            setTerm(TERM + 1);
          }
          return write.put(new Tenant("second", "", null, null, 0), null);
        };
    PipelineConnection connection = new PipelineConnection(new PipelineTestConfig(URL));
    AuditLines lines = new AuditLines(Thread::new);
    BatchRunner runner =
        new BatchRunner(
            connection,
            new ResourceCodec(),
            new UncountedWriteGuard(),
            new LatestImage(),
            new PipelineMetrics(),
            new TenantChanges(),
            lines,
            "cp1");
    CompletableFuture<Object> first = new CompletableFuture<>();
    CompletableFuture<Object> second = new CompletableFuture<>();
    CompletableFuture<Object> third = new CompletableFuture<>();
    try {
      runner.run(
          List.of(
              new Pending<>(violates, WriteMode.COMMIT, first, OPERATOR),
              new Pending<>(claimedUnderneath, WriteMode.COMMIT, second, OPERATOR),
              new Pending<>(tenant("third"), WriteMode.COMMIT, third, OPERATOR)),
          TERM);
    } finally {
      connection.close();
      lines.stop();
    }

    assertThat(refusal(first).code()).isEqualTo(ErrorCode.CONFLICT);
    assertThat(refusal(second).code()).isEqualTo(ErrorCode.NOT_LEADER);
    assertThat(refusal(third).code()).isEqualTo(ErrorCode.NOT_LEADER);
    assertThat(TestDatabase.logRows(URL, 0)).isEmpty();
  }

  private static ControlPlaneException refusal(CompletableFuture<Object> answer) {
    assertThat(answer).isCompletedExceptionally();
    Throwable error = answer.handle((outcome, e) -> e).join();
    assertThat(error).isInstanceOf(ControlPlaneException.class);
    return (ControlPlaneException) error;
  }

  private static void setTerm(long term) {
    try (Connection c = DriverManager.getConnection(URL, TestDatabase.USER, TestDatabase.PASSWORD);
        Statement st = c.createStatement()) {
      st.execute("UPDATE cluster_state SET leader_term = " + term + " WHERE id = 1");
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The guard's refusal without the cluster's metrics, which this test does not start. */
  private static final class UncountedWriteGuard extends WriteGuard {
    @Override
    public ControlPlaneException stale(long term, long recorded, LeaderHint recordedLeader) {
      return ControlPlaneException.notLeader(
          "leadership term " + term + " is no longer current (current term " + recorded + ")",
          recordedLeader);
    }
  }

  private static BatchRunner runner(
      PipelineConnection connection, CommitListener listener, AuditLines lines) {
    return new BatchRunner(
        connection,
        new ResourceCodec(),
        new WriteGuard(),
        listener,
        new PipelineMetrics(),
        new TenantChanges(),
        lines,
        "cp1");
  }

  private static Operation<Object> tenant(String name) {
    return write -> write.put(new Tenant(name, "", null, null, 0), null);
  }
}
