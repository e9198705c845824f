package dev.controlplane.write;

import dev.controlplane.audit.AuditLines;
import dev.controlplane.audit.CurrentActor;
import dev.controlplane.cache.TenantChanges;
import dev.controlplane.cluster.Leadership;
import dev.controlplane.cluster.WriteGuard;
import dev.controlplane.config.ControlPlaneConfig;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.metadata.codec.ResourceCodec;
import dev.controlplane.metadata.log.WriteMode;
import dev.controlplane.metadata.snapshot.MetadataImage;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The leader's write pipeline: the only way anything is written, to any table.
 *
 * <h2>Lifecycle</h2>
 *
 * {@link #start} after leadership and the watch hub; {@link #stop} fails what is still queued. On
 * every node it runs one thread, but accepts operations only while this node holds a fencing term
 * ({@link WriteGuard}); a follower refuses at {@link #submit} with {@code not_leader}. The write
 * state of each term is loaded from the database as soon as this node leads in it, while no write
 * waits (otherwise by the term's first batch), so a new leader starts from exactly what its
 * predecessors committed and its first write does not wait for the loading.
 *
 * <h2>Batches</h2>
 *
 * The thread takes every operation waiting (up to {@value #MAX_BATCH}) and runs them in submission
 * order against the in-memory {@link WriteState}, each seeing the changes of the ones before it, so
 * quotas, existence checks, preconditions and dry runs are exact inside a batch. The accepted
 * changes commit in one PostgreSQL transaction ({@link BatchTransaction}): the {@code
 * cluster_state} row lock and the fencing check first, in the same statement, then the rows with
 * JDBC batching, one commit. While it commits, new operations queue up and form the next batch: the
 * busier the writers, the larger the batches (group commit).
 *
 * <h2>Determinism</h2>
 *
 * Versions are assigned in submission order, gapless, and become visible in that order (one
 * transaction at a time holds the row lock). The state after a batch is a pure function of the
 * state before it and the batch's operations.
 *
 * <h2>Thread safety</h2>
 *
 * {@link #submit} and {@link #execute} may be called from any thread; operations, the state and the
 * connection are confined to the pipeline thread. {@link #committedImage} hands out the immutable
 * committed image to any thread.
 *
 * <h2>Failure handling</h2>
 *
 * A refused operation ({@code ControlPlaneException} from its checks) changes nothing and is
 * answered after its batch commits, like the others. A batch the database fails is failed as a
 * whole — {@code not_leader} when the recorded term is no longer this node's, {@code unavailable}
 * when the database is lost — and the in-memory state stays what is committed (or is reloaded when
 * the commit's outcome is unknown); never does part of a batch commit. A constraint violation is
 * pinned on its operation by running the batch's operations one by one.
 *
 * <h2>Side records</h2>
 *
 * An operation adds rows of any table through {@link WriteContext#sql}, committed in the same
 * transaction as its versioned changes and only if the batch commits.
 *
 * <h2>Audit</h2>
 *
 * Every operation that commits a change gets its audit records here, in one place: {@link #submit}
 * takes the caller's actor ({@code CurrentActor}, bound by the adapters), and once the operation
 * returns in commit mode its records join the batch's transaction ({@link WriteContext#seal}). A
 * refused operation, a dry run or a failed batch leaves none; the JSON lines are logged only after
 * the commit, once the callers and the watchers have their answers, by {@link AuditLines}.
 */
@ApplicationScoped
public class WritePipeline {

  private static final Logger LOG = Logger.getLogger(WritePipeline.class.getName());
  static final int MAX_BATCH = 512;

  /** How often an idle pipeline looks whether this node won a term whose state is not loaded. */
  private static final long PREPARE_CHECK_MILLIS = 50;

  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final Duration STOP_GRACE = Duration.ofSeconds(2);

  @Inject ControlPlaneConfig config;
  @Inject Leadership leadership;
  @Inject WriteGuard guard;
  @Inject ResourceCodec codec;
  @Inject PipelineMetrics metrics;
  @Inject TenantChanges tenants;

  @Resource ManagedThreadFactory threads;

  // Replaced by start() with one of the configured capacity; running guards every use before it.
  private volatile BlockingQueue<Pending<?>> queue = new LinkedBlockingQueue<>();
  private volatile boolean running;
  private volatile BatchRunner runner;
  private AuditLines lines;
  private PipelineConnection connection;
  private Thread thread;

  /** Pipeline thread only: when an idle pipeline may next try to load a term's state. */
  private long nextPrepareAt = System.nanoTime();

  public void start(CommitListener listener) {
    queue = new LinkedBlockingQueue<>(config.writeQueueLimit());
    connection = new PipelineConnection(config);
    metrics.register(queue);
    lines = new AuditLines(threads);
    runner =
        new BatchRunner(
            connection, codec, guard, listener, metrics, tenants, lines, config.nodeId());
    running = true;
    thread = threads.newThread(this::loop);
    thread.setName("write-pipeline");
    thread.start();
  }

  /**
   * Takes no more writes, answers the queued ones, and ends the pipeline thread. A batch in flight
   * gets {@link #STOP_GRACE} to finish; one that still waits for the database then (a database that
   * stalls, a lock another transaction holds) is canceled, and if the database does not answer that
   * either, its connection is aborted. Its writers are answered and the node stops instead of
   * waiting with it: Liberty waits for the HTTP requests in progress, and so for their writes,
   * before it stops the application.
   */
  public void stop() {
    running = false;
    failQueued();
    Thread pipeline = thread;
    if (pipeline != null && pipeline != Thread.currentThread()) {
      pipeline.interrupt();
      if (!ended(pipeline, STOP_GRACE)) {
        LOG.warning(
            "a write batch still waits for the database "
                + STOP_GRACE.toMillis()
                + " ms after this node began to stop; canceling it (its writers are told nothing"
                + " was written)");
        connection.cancel();
        if (!ended(pipeline, STOP_GRACE)) {
          // The database does not answer even the cancel request.
          LOG.warning(
              "the write batch did not end when canceled; aborting the pipeline's database"
                  + " connection (its writers are told the outcome is unknown)");
          connection.abort();
          if (!ended(pipeline, STOP_GRACE)) {
            LOG.warning("the write pipeline did not end after its connection was aborted");
          }
        }
      }
    }
    if (lines != null) {
      lines.stop();
    }
  }

  private static boolean ended(Thread thread, Duration wait) {
    try {
      thread.join(wait.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return !thread.isAlive();
  }

  private void failQueued() {
    List<Pending<?>> left = new ArrayList<>();
    queue.drainTo(left);
    BatchRunner.failAll(left, shuttingDown());
  }

  /**
   * Backpressure: a writer that floods the leader faster than batches commit (or a database that
   * stalls under a steady load) is answered at once instead of growing the queue without bound.
   */
  private ControlPlaneException full() {
    return ControlPlaneException.unavailable(
        "the leader has "
            + queue.size()
            + " writes waiting, as many as it queues (SERVICE_CONTROLPLANE_WRITE_QUEUE_LIMIT);"
            + " nothing was written; retry in a moment",
        null);
  }

  private static ControlPlaneException shuttingDown() {
    return ControlPlaneException.unavailable("the server is shutting down; retry", null);
  }

  /**
   * Queues {@code op}; the future completes once its batch committed (or failed), or when the write
   * did not start within two minutes (then nothing is written) or did not finish within as long
   * again (then its outcome is unknown; {@link Pending#limitWait}). Refuses at once on a node that
   * does not lead, and when the queue holds {@code SERVICE_CONTROLPLANE_WRITE_QUEUE_LIMIT} writes.
   */
  public <R> CompletableFuture<R> submit(Operation<R> op, WriteMode mode) {
    guard.currentTerm();
    if (!running) {
      throw ControlPlaneException.unavailable("the server is starting or stopping", null);
    }
    Pending<R> pending = new Pending<>(op, mode, new CompletableFuture<>(), CurrentActor.get());
    if (!queue.offer(pending)) {
      metrics.refused();
      throw full();
    }
    if (!running && queue.remove(pending)) {
      // stop() drained the queue between the check above and the add: nothing would answer it.
      throw shuttingDown();
    }
    pending.limitWait(WAIT);
    return pending.future();
  }

  /** Submits {@code op} and waits for its outcome, rethrowing its error. */
  public <R> R execute(Operation<R> op, WriteMode mode) {
    CompletableFuture<R> future = submit(op, mode);
    try {
      return future.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw ControlPlaneException.unavailable(
          "interrupted while waiting for the write, which may or may not be stored", e);
    }
  }

  public <R> R execute(Operation<R> op) {
    return execute(op, WriteMode.COMMIT);
  }

  /**
   * Submits {@code op} to commit and returns without waiting: the future completes on the pipeline
   * thread with the outcome or the error {@link #execute} would throw, including its time limits.
   * For adapters that answer from their own transport thread, so that no thread blocks per write.
   */
  public <R> CompletableFuture<R> commitAsync(Operation<R> op) {
    return submit(op, WriteMode.COMMIT);
  }

  /** The image as last committed by this leader, for reads that plan without writing. */
  public Optional<MetadataImage> committedImage() {
    BatchRunner r = runner;
    WriteState state = r == null ? null : r.committed();
    OptionalLong term = leadership.term();
    return state != null && term.isPresent() && state.term() == term.getAsLong()
        ? Optional.of(state.image())
        : Optional.empty();
  }

  private void loop() {
    try {
      while (running) {
        List<Pending<?>> drained = new ArrayList<>();
        try {
          Pending<?> first = queue.poll(PREPARE_CHECK_MILLIS, TimeUnit.MILLISECONDS);
          if (first == null) {
            prepareForTerm();
            continue;
          }
          drained.add(first);
        } catch (InterruptedException e) {
          break;
        }
        queue.drainTo(drained, MAX_BATCH - 1);
        List<Pending<?>> batch = Pending.taken(drained);
        if (batch.isEmpty()) {
          continue;
        }
        metrics.started(batch, System.nanoTime());
        try {
          runBatch(batch);
        } catch (RuntimeException | Error e) {
          // Even an Error (a stack overflow, a class that failed to load, memory) must not end the
          // one thread every write of the node waits for. The batch may have stopped anywhere, its
          // transaction open on the cluster_state row (which the lease's renewal needs) or its
          // commit sent: drop the connection and the state, and the callers hear "unknown".
          LOG.log(Level.SEVERE, "write pipeline batch failed", e);
          connection.close();
          runner.forget();
          runner.fail(
              batch,
              ControlPlaneException.unavailable(
                  "the write failed unexpectedly and may or may not be stored; read it before"
                      + " retrying",
                  e));
        }
      }
    } finally {
      failQueued();
      connection.close();
    }
  }

  /** While no write waits: a node that has just won a term loads its write state at once. */
  private void prepareForTerm() {
    OptionalLong term = leadership.term();
    if (term.isEmpty() || System.nanoTime() - nextPrepareAt < 0) {
      return;
    }
    runner.prepare(term.getAsLong());
    if (runner.committed() == null) {
      // The database does not answer: do not ask it 20 times a second while nobody writes.
      nextPrepareAt = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
    }
  }

  private void runBatch(List<Pending<?>> batch) {
    OptionalLong term = leadership.term();
    if (term.isEmpty()) {
      runner.forget();
      ControlPlaneException refusal;
      try {
        guard.currentTerm();
        refusal = ControlPlaneException.unavailable("leadership changed; retry", null);
      } catch (ControlPlaneException e) {
        refusal = e;
      }
      runner.fail(batch, refusal);
      return;
    }
    runner.run(batch, term.getAsLong());
  }
}
