package dev.controlplane.write;

import dev.controlplane.audit.AuditLines;
import dev.controlplane.cache.TenantChanges;
import dev.controlplane.cluster.WriteGuard;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.Failures;
import dev.controlplane.metadata.codec.ResourceCodec;
import dev.controlplane.metadata.log.WriteMode;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs one batch on the pipeline thread: validates each operation in order against the state the
 * earlier ones left, commits the accepted ones in one {@link BatchTransaction}, and completes every
 * operation with its result or its error only after that. Owns the committed {@link WriteState}:
 * replaced by a successful batch, kept by a failed one, dropped (reloaded at the next batch) when
 * the database's outcome is unknown or the term changed.
 */
final class BatchRunner {

  private static final Logger LOG = Logger.getLogger(BatchRunner.class.getName());

  private final PipelineConnection connection;
  private final ResourceCodec codec;
  private final WriteGuard guard;
  private final CommitListener listener;
  private final PipelineMetrics metrics;
  private final TenantChanges tenants;
  private final AuditLines lines;
  private final String node;
  // Written only by the pipeline thread; volatile because the committed image is handed to
  // readers (WritePipeline#committedImage), and a caller answered from a batch must find the batch
  // in it: the write below precedes the answers.
  private volatile WriteState committed;

  BatchRunner(
      PipelineConnection connection,
      ResourceCodec codec,
      WriteGuard guard,
      CommitListener listener,
      PipelineMetrics metrics,
      TenantChanges tenants,
      AuditLines lines,
      String node) {
    this.node = node;
    this.lines = lines;
    this.connection = connection;
    this.codec = codec;
    this.guard = guard;
    this.listener = listener;
    this.metrics = metrics;
    this.tenants = tenants;
  }

  /** The committed state, or null when it must be (re)loaded first. */
  WriteState committed() {
    return committed;
  }

  void forget() {
    committed = null;
  }

  void run(List<Pending<?>> batch, long term) {
    try {
      loadFor(term);
    } catch (ControlPlaneException e) {
      fail(batch, e);
      return;
    } catch (SQLException | RuntimeException e) {
      fail(batch, CommitOutcome.unavailable(e));
      return;
    }
    attempt(batch, term, true);
  }

  /**
   * Loads the write state of {@code term} before any write of it arrives, so that a new leader's
   * first write does not wait for its connection and state (55-130 ms measured after an orderly
   * stop). A failure is left for the first batch, which tries again and reports it.
   */
  void prepare(long term) {
    try {
      loadFor(term);
    } catch (SQLException | RuntimeException e) {
      LOG.fine("the write state of term " + term + " is not loaded yet: " + e);
    }
  }

  private void loadFor(long term) throws SQLException {
    if (committed != null && committed.term() == term) {
      return;
    }
    try {
      committed =
          historyChecked(
              term,
              StateLoader.catchUp(connection.get(), term, listener.image(), codec::readStored));
    } catch (SQLException | RuntimeException e) {
      connection.close();
      committed = null;
      throw e;
    }
  }

  private void attempt(List<Pending<?>> batch, long term, boolean mayReload) {
    long started = System.nanoTime();
    BatchTransaction tx;
    try {
      tx = new BatchTransaction(connection.get(), term, committed.version());
    } catch (SQLException e) {
      connection.close();
      fail(batch, CommitOutcome.unavailable(e));
      return;
    }
    WriteState working;
    List<Object> outcomes = new ArrayList<>(batch.size());
    try {
      working = applyAll(batch, tx, codec, committed, node, outcomes);
      commitAnnounced(tx, working.version());
    } catch (Fenced f) {
      tx.rollbackQuietly();
      fenced(batch, term, f, mayReload);
      return;
    } catch (BatchTransaction.FencedRead f) {
      tx.rollbackQuietly();
      fenced(batch, term, f.fenced, mayReload);
      return;
    } catch (BatchFailure e) {
      failed(batch, term, tx, e.sqlCause());
      return;
    } catch (SQLException e) {
      failed(batch, term, tx, e);
      return;
    } catch (RuntimeException bug) {
      tx.rollbackQuietly();
      LOG.log(Level.SEVERE, "a write batch failed unexpectedly; nothing of it committed", bug);
      fail(batch, bug);
      return;
    }
    committed = working;
    metrics.committed(batch.size(), System.nanoTime() - started);
    long version = working.version();
    if (!tx.updates().isEmpty()) {
      afterCommit(
          version,
          "handing it to the watch hub",
          () -> listener.committed(List.copyOf(tx.updates()), working.image()));
    }
    if (tx.authChanged()) {
      // Before the callers hear of it: the node that wrote reads its own write at once. Other
      // nodes hear it from the tables' trigger.
      afterCommit(version, "invalidating the cached tenants", tenants::changedAll);
    }
    for (int i = 0; i < batch.size(); i++) {
      batch.get(i).complete(outcomes.get(i));
    }
    if (!tx.updates().isEmpty()) {
      afterCommit(version, "waking the watchers", listener::deliver);
    }
    // The JSON lines last and on their own thread: neither the callers nor the watchers need them.
    lines.emit(tx.audited());
  }

  /**
   * A step after the commit: whatever it throws, the batch is committed, and its callers are
   * answered with their outcomes, not told that a write which is there failed (they would retry
   * it). The watch hub reads what it missed from the change log, and the tenant caches hear of the
   * change from the auth tables' trigger, as on every other node.
   */
  private static void afterCommit(long version, String step, Runnable work) {
    try {
      work.run();
    } catch (RuntimeException e) {
      LOG.log(
          Level.SEVERE,
          "the batch up to version "
              + version
              + " committed, but "
              + step
              + " failed; its writers are answered, the watchers catch up from the change log",
          e);
    }
  }

  /** Commits, telling the listener beforehand up to which version, and when that fell through. */
  private void commitAnnounced(BatchTransaction tx, long lastVersion) throws SQLException, Fenced {
    boolean announced = lastVersion > committed.version();
    if (announced) {
      listener.committing(lastVersion);
    }
    try {
      tx.commit(lastVersion);
    } catch (SQLException | Fenced | RuntimeException e) {
      if (announced) {
        listener.committing(0);
      }
      throw e;
    }
  }

  /**
   * Runs the operations in order, each against the state the accepted ones before it left, and
   * hands each accepted one's records (its audit records sealed after its own) to {@code tx}; a
   * refused operation or a dry run hands over nothing. Returns the state after the batch; {@code
   * outcomes} receives each operation's result or refusal.
   */
  static WriteState applyAll(
      List<Pending<?>> batch,
      BatchTransaction tx,
      ResourceCodec codec,
      WriteState from,
      String node,
      List<Object> outcomes) {
    WriteState working = from;
    for (Pending<?> p : batch) {
      WriteContext op = new WriteContext(tx, codec, working);
      try {
        outcomes.add(p.op().apply(op));
        if (p.mode() == WriteMode.COMMIT) {
          op.seal(p.actor(), node, Instant.now().truncatedTo(ChronoUnit.MICROS));
          tx.accept(op);
          working = op.state();
        }
      } catch (ControlPlaneException refused) {
        outcomes.add(refused);
      }
    }
    return working;
  }

  private void fenced(List<Pending<?>> batch, long term, Fenced f, boolean mayReload) {
    metrics.failed();
    long mine = committed.version();
    committed = null;
    if (f.recordedTerm != term) {
      fail(batch, guard.stale(term, f.recordedTerm, f.leader));
      return;
    }
    // Same term, other version: something wrote the tables beside this pipeline. Reload, retry
    // once.
    LOG.warning(
        "cluster_state is at version "
            + f.recordedVersion
            + ", not at this leader's "
            + mine
            + "; reloading the write state");
    if (mayReload) {
      try {
        committed = historyChecked(term, StateLoader.load(connection.get(), term));
        attempt(batch, term, false);
        return;
      } catch (SQLException e) {
        connection.close();
      } catch (ControlPlaneException e) {
        fail(batch, e);
        return;
      }
    }
    fail(batch, ControlPlaneException.unavailable("the metadata changed underneath", null));
  }

  /**
   * {@code read}, unless the database is behind a version this node has read: then it lost
   * committed versions, and the batch would give them to other changes. A new history is started
   * first ({@link NewHistory}), and the state read again.
   */
  private WriteState historyChecked(long term, WriteState read) throws SQLException {
    long seen = listener.highestSeen();
    if (read.version() >= seen) {
      return read;
    }
    long head;
    try {
      head = NewHistory.start(connection.get(), term, read.version(), node);
    } catch (Fenced f) {
      throw f.recordedTerm != term
          ? guard.stale(term, f.recordedTerm, f.leader)
          : ControlPlaneException.unavailable(
              "the metadata changed while this leader started a new history; retry", null);
    }
    LOG.severe(
        "the database is at metadata version "
            + read.version()
            + ", behind version "
            + seen
            + " that this node had read: it lost committed versions (restored from a backup, or"
            + " failed over to a standby that had not received them). Started a new history at"
            + " version "
            + head
            + ", so that no version brokers saw is given to another change; brokers at older"
            + " versions are answered OUT_OF_RANGE and take a new snapshot (docs/operations.md,"
            + " \"Database loss\")");
    tenants.changedAll();
    WriteState restarted = StateLoader.load(connection.get(), term);
    listener.restarted(restarted.image());
    return restarted;
  }

  /**
   * The database refused or lost the batch. A constraint violation (a row the in-memory checks did
   * not foresee, such as one written by hand) is pinned on its operation by running each alone;
   * anything else fails the whole batch as unavailable, and the state is reloaded because the
   * commit's outcome may be unknown.
   */
  private void failed(List<Pending<?>> batch, long term, BatchTransaction tx, SQLException e) {
    tx.rollbackQuietly();
    metrics.failed();
    String state = e.getSQLState() == null ? "" : e.getSQLState();
    boolean dataError = state.startsWith("23") || state.startsWith("22");
    if (dataError && batch.size() > 1) {
      for (Pending<?> p : batch) {
        // run, not attempt: an earlier one's failure may have dropped the state (fenced, or the
        // connection lost), and run reloads it or refuses with the term's error.
        run(List.of(p), term);
      }
      return;
    }
    if (dataError) {
      // The in-memory checks accepted it: a check is missing (class 22, the value), or a row
      // differs from the image (class 23, changed by hand?). The database's text names tables and
      // parameters, so it goes to the log only.
      LOG.warning("the database refused a write the checks accepted: " + e.getMessage());
      fail(
          batch,
          state.startsWith("22")
              ? Failures.refusedValue()
              : ControlPlaneException.conflict(
                  "the database refused the change: a row it touches is not as this node holds"
                      + " it (changed outside the service?)"));
      return;
    }
    LOG.warning("a write batch failed in the database; retry: " + e.getMessage());
    ControlPlaneException error = CommitOutcome.errorFor(e, connection.isBroken());
    connection.close();
    committed = null;
    fail(batch, error);
  }

  /** Fails every operation of a batch that started: each is answered with {@code error}. */
  void fail(List<Pending<?>> batch, Throwable error) {
    metrics.operationsFailed(batch.size());
    failAll(batch, error);
  }

  static void failAll(List<Pending<?>> batch, Throwable error) {
    for (Pending<?> p : batch) {
      p.complete(error);
    }
  }
}
