package dev.controlplane.write;

import dev.controlplane.audit.AuditLog;
import dev.controlplane.audit.AuditRecord;
import dev.controlplane.error.LeaderHint;
import dev.controlplane.metadata.log.ChangeLog;
import dev.controlplane.metadata.model.MetadataUpdate;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The one PostgreSQL transaction of a batch, its statements from BEGIN to COMMIT sent in one round
 * trip ({@link PipelinedStatements}, up to 64 statements each). The first statement fences and
 * assigns the versions; the operations' rows follow (runs of the same SQL joined where safe by
 * {@link StatementOrder}), then the log entries and the audit rows.
 *
 * <p>When no operation of the batch reads the database, the first statement is {@code UPDATE
 * cluster_state SET metadata_version = new WHERE leader_term = mine AND metadata_version =
 * committed}, which locks, fences and assigns in one step (and sends the one {@code pg_notify} of
 * the batch, delivered to other nodes on commit); when it finds no row it stops the statements sent
 * after it, and the batch fails as {@link Fenced}. An operation that reads ({@link
 * WriteContext#query}) first opens the transaction block and takes the lock with {@code SELECT …
 * FOR UPDATE}, and the earlier operations' rows are written before it reads.
 *
 * <p>Confined to the pipeline thread.
 */
final class BatchTransaction {

  private static final String LOCK =
      "SELECT leader_term, metadata_version, leader_node, leader_http, leader_grpc"
          + " FROM cluster_state WHERE id = 1";
  private static final String ASSIGN =
      "UPDATE cluster_state SET metadata_version = ? WHERE id = 1 AND leader_term = ?"
          + " AND metadata_version = ?";
  // The payload is the batch's last version: a node that already has it (the leader, which fed
  // its own watch hub) need not read the log on this notification.
  private static final String NOTIFY =
      "pg_notify('" + ChangeLog.CHANNEL + "', metadata_version::text)";
  private static final String DIVISION_BY_ZERO = "22012";
  private static final SqlStatement BEGIN = SqlStatement.of("BEGIN");
  private static final SqlStatement COMMIT = SqlStatement.of("COMMIT");

  private final Connection connection;
  private final long term;
  private final long committedVersion;
  private boolean locked;
  // Whether a transaction block is open on the server. The connection is in auto-commit mode and
  // the batch writes BEGIN and COMMIT itself, so that the commit travels with the statements.
  private boolean open;
  private final List<SqlStatement> pending = new ArrayList<>();
  private final List<SqlStatement> logRows = new ArrayList<>();
  private final List<MetadataUpdate> updates = new ArrayList<>();
  private final List<AuditRecord> audited = new ArrayList<>();
  private boolean authChanged;

  BatchTransaction(Connection connection, long term, long committedVersion) {
    this.connection = connection;
    this.term = term;
    this.committedVersion = committedVersion;
  }

  /** Takes the records of an operation that succeeded. */
  void accept(WriteContext op) {
    pending.addAll(op.statements);
    logRows.addAll(op.logRows);
    updates.addAll(op.updates);
    audited.addAll(op.auditRecords);
    authChanged |= op.authChanged;
  }

  List<MetadataUpdate> updates() {
    return updates;
  }

  /** The audit records of the accepted operations, in order; their rows go in at commit. */
  List<AuditRecord> audited() {
    return audited;
  }

  /** The audit rows of the accepted operations, sent together after the changes. */
  List<SqlStatement> auditRows() {
    List<SqlStatement> rows = new ArrayList<>(audited.size());
    for (AuditRecord record : audited) {
      rows.add(SqlStatement.of(AuditLog.INSERT, AuditLog.params(record)));
    }
    return rows;
  }

  /** The row changes not yet sent to the database. */
  List<SqlStatement> pending() {
    return pending;
  }

  /** Whether rows that nodes cache per tenant changed (RBAC, issuers, signing keys). */
  boolean authChanged() {
    return authChanged;
  }

  <T> T read(WriteContext.Query<T> query) throws SQLException {
    lock();
    flush();
    return query.run(connection);
  }

  /** Writes everything and commits; {@link Fenced} when this node may not (or no longer) write. */
  void commit(long finalVersion) throws SQLException, Fenced {
    boolean changed = finalVersion != committedVersion;
    boolean fencing = !locked;
    List<SqlStatement> rest = new ArrayList<>();
    if (!open) {
      rest.add(BEGIN);
    }
    if (fencing) {
      rest.add(
          SqlStatement.of(
              "WITH assigned AS ("
                  + ASSIGN
                  + " RETURNING "
                  + (changed ? NOTIFY : "1")
                  + ")"
                  // No row: another term is recorded, or another version. Division by zero (the
                  // only one in the batch's SQL) stops the statements after it in the same round
                  // trip.
                  + " SELECT 1 / count(*) FROM assigned",
              finalVersion,
              term,
              committedVersion));
    } else if (changed) {
      rest.add(
          SqlStatement.of(
              "UPDATE cluster_state SET metadata_version = ? WHERE id = 1 RETURNING " + NOTIFY,
              finalVersion));
    }
    rest.addAll(StatementOrder.grouped(pending));
    pending.clear();
    rest.addAll(logRows);
    rest.addAll(auditRows());
    rest.add(COMMIT);
    open = true;
    try {
      PipelinedStatements.execute(connection, rest);
    } catch (SQLException e) {
      rollbackQuietly();
      if (fencing && DIVISION_BY_ZERO.equals(e.getSQLState())) {
        throw recorded();
      }
      throw e;
    }
    open = false;
  }

  /** Ends the transaction block, if one is open, without writing. */
  void rollbackQuietly() {
    if (!open) {
      return;
    }
    open = false;
    try (Statement st = connection.createStatement()) {
      st.execute("ROLLBACK");
    } catch (SQLException ignored) {
      // The connection is gone: the server rolls the transaction back itself.
    }
  }

  private void lock() throws SQLException {
    if (locked) {
      return;
    }
    try (Statement st = connection.createStatement()) {
      st.execute("BEGIN");
    }
    open = true;
    try (PreparedStatement ps = connection.prepareStatement(LOCK + " FOR UPDATE");
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      long recordedTerm = rs.getLong(1);
      long recordedVersion = rs.getLong(2);
      if (recordedTerm != term || recordedVersion != committedVersion) {
        throw new FencedRead(new Fenced(recordedTerm, recordedVersion, hint(rs)));
      }
    }
    locked = true;
  }

  private Fenced recorded() throws SQLException {
    try (PreparedStatement ps = connection.prepareStatement(LOCK);
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      return new Fenced(rs.getLong(1), rs.getLong(2), hint(rs));
    }
  }

  private static LeaderHint hint(ResultSet rs) throws SQLException {
    String node = rs.getString(3);
    return node == null ? null : new LeaderHint(node, rs.getString(4), rs.getString(5));
  }

  private void flush() throws SQLException {
    PipelinedStatements.execute(connection, StatementOrder.grouped(pending));
    pending.clear();
  }

  /** A failed fencing check found while reading, carried out of {@link WriteContext#query}. */
  static final class FencedRead extends RuntimeException {
    final Fenced fenced;

    FencedRead(Fenced fenced) {
      super("fencing check failed", null, false, false);
      this.fenced = fenced;
    }
  }
}
