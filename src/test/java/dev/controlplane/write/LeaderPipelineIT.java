package dev.controlplane.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.controlplane.cache.TenantChanges;
import dev.controlplane.cluster.Leadership;
import dev.controlplane.cluster.WriteGuard;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.it.support.TestDatabase;
import dev.controlplane.metadata.codec.ResourceCodec;
import dev.controlplane.metadata.model.Tenant;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The leader's write pipeline at its edges, against a real PostgreSQL. Backpressure: while a batch
 * cannot commit (here another transaction holds the {@code cluster_state} row), writes queue up to
 * the configured limit, the next one is refused at once with nothing written, and every write that
 * was queued commits once the database moves again. A node that leads loads its write state before
 * the first write arrives, so that write does not wait for it after a failover. A writer who was
 * answered finds its write in the committed image.
 */
class LeaderPipelineIT {

  private static final String URL = TestDatabase.url(TestDatabase.name() + "_empty");
  private static final long TERM = 3;
  private static final int LIMIT = 2;

  @BeforeEach
  void database() throws Exception {
    TestDatabase.resetAndMigrate(URL);
    try (Connection c = connect();
        Statement st = c.createStatement()) {
      st.execute("UPDATE cluster_state SET leader_term = " + TERM + " WHERE id = 1");
    }
  }

  @Test
  void aFullQueueRefusesTheNextWriteAtOnceAndEveryQueuedWriteCommitsLater() throws Exception {
    WritePipeline pipeline = pipeline();
    pipeline.start(new LatestImage());
    try (Connection blocker = connect()) {
      blocker.setAutoCommit(false);
      try (Statement st = blocker.createStatement()) {
        st.execute("SELECT * FROM cluster_state WHERE id = 1 FOR UPDATE");
      }
      CompletableFuture<Object> stuck = pipeline.commitAsync(tenant("stuck"));
      awaitPipelineWaitingForTheLock();

      CompletableFuture<Object> first = pipeline.commitAsync(tenant("first"));
      CompletableFuture<Object> second = pipeline.commitAsync(tenant("second"));
      assertThatThrownBy(() -> pipeline.commitAsync(tenant("refused")))
          .isInstanceOfSatisfying(
              ControlPlaneException.class,
              e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.UNAVAILABLE);
                assertThat(e.getMessage())
                    .contains("2 writes waiting")
                    .contains("SERVICE_CONTROLPLANE_WRITE_QUEUE_LIMIT")
                    .contains("nothing was written");
              });

      blocker.rollback();
      stuck.get(30, TimeUnit.SECONDS);
      first.get(30, TimeUnit.SECONDS);
      second.get(30, TimeUnit.SECONDS);
      // The queue has room again.
      pipeline.commitAsync(tenant("after")).get(30, TimeUnit.SECONDS);
    } finally {
      pipeline.stop();
    }

    assertThat(TestDatabase.logRows(URL, 0))
        .extracting(TestDatabase.LogRow::version)
        .containsExactly(1L, 2L, 3L, 4L);
    assertThat(tenantNames()).containsExactlyInAnyOrder("stuck", "first", "second", "after");
  }

  /**
   * An Error inside a batch (here after the batch locked cluster_state to read) is answered as a
   * write of unknown outcome, the transaction and its lock are dropped, and the pipeline goes on:
   * it does not die with every later write waiting on it and the lock held.
   */
  @Test
  void anErrorInABatchFailsOnlyThatBatchAndReleasesTheLock() throws Exception {
    WritePipeline pipeline = pipeline();
    pipeline.start(new LatestImage());
    try {
      CompletableFuture<Object> broken =
          pipeline.commitAsync(
              write -> {
                write.query(c -> 1);
                throw new StackOverflowError("an operation that recursed too deep");
              });
      assertThatThrownBy(() -> broken.get(30, TimeUnit.SECONDS))
          .hasCauseInstanceOf(ControlPlaneException.class)
          .cause()
          .hasMessageContaining("may or may not be stored");
      try (Connection c = connect();
          Statement st = c.createStatement()) {
        c.setAutoCommit(false);
        st.execute("SELECT * FROM cluster_state WHERE id = 1 FOR UPDATE NOWAIT");
        c.rollback();
      }
      pipeline.commitAsync(tenant("after")).get(30, TimeUnit.SECONDS);
    } finally {
      pipeline.stop();
    }
    assertThat(tenantNames()).containsExactly("after");
  }

  @Test
  void aLeadingNodeLoadsItsWriteStateBeforeAnyWriteArrives() throws Exception {
    WritePipeline pipeline = pipeline();
    pipeline.start(new LatestImage());
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (pipeline.committedImage().isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(pipeline.committedImage())
          .as("the state of term %d with no write submitted", TERM)
          .isPresent();
      assertThat(pipeline.committedImage().orElseThrow().version()).isZero();
      pipeline.commitAsync(tenant("first")).get(30, TimeUnit.SECONDS);
      assertThat(pipeline.committedImage().orElseThrow().version()).isEqualTo(1);
    } finally {
      pipeline.stop();
    }
  }

  @Test
  void aWriterFindsItsWriteInTheCommittedImageAsSoonAsItIsAnswered() throws Exception {
    CountDownLatch deliveries = new CountDownLatch(1);
    WritePipeline pipeline = pipeline();
    // Watchers are served after the writers are answered; here they take until the test is done.
    pipeline.start(
        new LatestImage() {
          @Override
          public void deliver() {
            try {
              deliveries.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
        });
    try {
      pipeline.commitAsync(tenant("planned")).get(30, TimeUnit.SECONDS);
      assertThat(pipeline.committedImage())
          .as("the image plans read (rebalancing) right after the answer")
          .hasValueSatisfying(
              image -> {
                assertThat(image.version()).isEqualTo(1);
                assertThat(image.tenant("planned")).isPresent();
              });
    } finally {
      deliveries.countDown();
      pipeline.stop();
    }
  }

  @Test
  void aLeaderWhoseNodeReadVersionsTheDatabaseNoLongerHasStartsANewHistoryBeforeItWrites()
      throws Exception {
    WritePipeline pipeline = pipeline();
    // The node had read up to version 5; the database, restored or failed over, is at 0.
    pipeline.start(new LatestImage().seen(5));
    try {
      pipeline.commitAsync(tenant("first")).get(30, TimeUnit.SECONDS);
    } finally {
      pipeline.stop();
    }

    assertThat(TestDatabase.logRows(URL, 0))
        .as("the write's version, never one of the five the node had read")
        .extracting(TestDatabase.LogRow::version)
        .containsExactly(SKIP + 1);
    assertThat(bounds()).as("head and oldest servable version").containsExactly(SKIP + 1, SKIP);
    assertThat(newHistoryRecords())
        .containsExactly(
            "controlplane system cp1 {\"skipped\": 1000000000, \"restored_version\": 0}");
  }

  @Test
  void aLeaderWhoseBatchFindsTheDatabaseBehindItsStateStartsANewHistoryAndRetries()
      throws Exception {
    WritePipeline pipeline = pipeline();
    pipeline.start(new LatestImage());
    try {
      pipeline.commitAsync(tenant("kept")).get(30, TimeUnit.SECONDS);
      pipeline.commitAsync(tenant("lost")).get(30, TimeUnit.SECONDS);
      // The database loses version 2 under the running leader, as a failover to a standby that
      // had not received it would.
      try (Connection c = connect();
          Statement st = c.createStatement()) {
        st.execute(
            "DELETE FROM tenants WHERE name = 'lost'; DELETE FROM metadata_updates WHERE version = 2;"
                + " UPDATE cluster_state SET metadata_version = 1 WHERE id = 1");
      }
      pipeline.commitAsync(tenant("after")).get(30, TimeUnit.SECONDS);
    } finally {
      pipeline.stop();
    }

    assertThat(TestDatabase.logRows(URL, 0))
        .extracting(TestDatabase.LogRow::version)
        .as("version 2 went to the lost tenant; the next write starts the new history")
        .containsExactly(1 + SKIP + 1);
    assertThat(tenantNames()).containsExactlyInAnyOrder("kept", "after");
    assertThat(newHistoryRecords()).hasSize(1);
  }

  /** The pipeline's batch transaction waits for the row lock: the first write left the queue. */
  private static void awaitPipelineWaitingForTheLock() throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    try (Connection c = connect();
        Statement st = c.createStatement()) {
      while (System.nanoTime() < deadline) {
        try (ResultSet rs =
            st.executeQuery(
                "SELECT count(*) FROM pg_stat_activity"
                    + " WHERE datname = current_database() AND wait_event_type = 'Lock'")) {
          rs.next();
          if (rs.getInt(1) > 0) {
            return;
          }
        }
        Thread.sleep(20);
      }
    }
    throw new AssertionError("the pipeline never waited for the cluster_state row lock");
  }

  /** The default skip of {@code controlplane_start_new_history} (migration V10). */
  private static final long SKIP = 1_000_000_000L;

  private static List<Long> bounds() throws Exception {
    try (Connection c = connect();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery("SELECT metadata_version, retained_from - 1 FROM cluster_state")) {
      rs.next();
      return List.of(rs.getLong(1), rs.getLong(2));
    }
  }

  private static List<String> newHistoryRecords() throws Exception {
    try (Connection c = connect();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT principal || ' ' || principal_type || ' ' || node || ' ' || metadata"
                    + " FROM audit_records WHERE operation = 'cluster.new_history'")) {
      List<String> records = new java.util.ArrayList<>();
      while (rs.next()) {
        records.add(rs.getString(1));
      }
      return records;
    }
  }

  private static List<String> tenantNames() throws Exception {
    try (Connection c = connect();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT name FROM tenants")) {
      List<String> names = new java.util.ArrayList<>();
      while (rs.next()) {
        names.add(rs.getString(1));
      }
      return names;
    }
  }

  private static Connection connect() throws Exception {
    return DriverManager.getConnection(URL, TestDatabase.USER, TestDatabase.PASSWORD);
  }

  private static Operation<Object> tenant(String name) {
    return write -> write.put(new Tenant(name, "", null, null, 0), null);
  }

  /** A pipeline wired by hand as CDI would wire it, leading in {@link #TERM}. */
  private static WritePipeline pipeline() {
    WritePipeline pipeline = new WritePipeline();
    pipeline.config =
        new PipelineTestConfig(URL) {
          @Override
          public int writeQueueLimit() {
            return LIMIT;
          }
        };
    pipeline.leadership = new LeadingNode();
    pipeline.guard =
        new WriteGuard() {
          @Override
          public long currentTerm() {
            return TERM;
          }
        };
    pipeline.codec = new ResourceCodec();
    pipeline.metrics =
        new PipelineMetrics() {
          @Override
          void register(Collection<?> queue) {
            // No metric registry outside the server; the counters stay off.
          }
        };
    pipeline.tenants = new TenantChanges();
    pipeline.threads = new PlainThreads();
    return pipeline;
  }

  private static final class LeadingNode implements Leadership {
    @Override
    public OptionalLong term() {
      return OptionalLong.of(TERM);
    }

    @Override
    public Optional<String> leaderId() {
      return Optional.of("cp1");
    }

    @Override
    public Optional<String> leaderHttpAddress() {
      return Optional.empty();
    }

    @Override
    public Optional<String> leaderGrpcAddress() {
      return Optional.empty();
    }

    @Override
    public Role role() {
      return Role.LEADER;
    }
  }

  private static final class PlainThreads implements ManagedThreadFactory {
    @Override
    public Thread newThread(Runnable task) {
      Thread thread = new Thread(task);
      thread.setDaemon(true);
      return thread;
    }

    @Override
    public ForkJoinWorkerThread newThread(ForkJoinPool pool) {
      throw new UnsupportedOperationException("not used by the pipeline");
    }
  }
}
