package dev.controlplane.write;

import dev.controlplane.config.ControlPlaneConfig;
import dev.controlplane.db.OwnConnection;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import org.postgresql.PGConnection;

/**
 * The pipeline's own PostgreSQL connection: plain JDBC, not the application server's XA pool, so a
 * batch pays no two-phase bookkeeping and no pool checkout. Reopened after any failure. It carries
 * the node's application name like every other connection, so a new leader's claim can find and end
 * it if this node is paused inside a batch (see {@code TermStore}).
 */
final class PipelineConnection {

  private final ControlPlaneConfig config;
  // Volatile: abort() comes from the thread that stops the node.
  private volatile Connection connection;

  PipelineConnection(ControlPlaneConfig config) {
    this.config = config;
  }

  Connection get() throws SQLException {
    if (connection == null) {
      Properties props = new Properties();
      // No reWriteBatchedInserts: it turns a JDBC batch of upserts into one multi-row INSERT … ON
      // CONFLICT DO UPDATE, which PostgreSQL refuses when two writes of one batch touch the same
      // row.
      // A batch goes as one text of joined statements (PipelinedStatements). The driver prepares
      // a text on the server after its fifth use, which makes a batch several times cheaper for
      // PostgreSQL (measured: 2,300-2,600 CreateStream/s against 1,100-1,400 never prepared).
      // Each text kept prepared holds a plan per statement in this session (16-30 KB each), so
      // the driver keeps at most 128 texts; only texts used five times are prepared at all.
      props.setProperty("preparedStatementCacheQueries", "128");
      Connection c = OwnConnection.open(config, "controlplane-" + config.nodeId(), 60, props);
      try {
        // Each batch writes BEGIN and COMMIT itself (BatchTransaction).
        c.setAutoCommit(true);
      } catch (SQLException e) {
        c.close();
        throw e;
      }
      connection = c;
    }
    return connection;
  }

  /**
   * Asks PostgreSQL, from another thread, to cancel the statement this connection runs. A batch
   * canceled before its commit fails with {@code query_canceled} and leaves nothing; one whose
   * commit had begun completes, because PostgreSQL does not cancel a commit.
   */
  void cancel() {
    Connection c = connection;
    if (c != null) {
      try {
        c.unwrap(PGConnection.class).cancelQuery();
      } catch (SQLException | RuntimeException ignored) {
        // Unreachable or broken: the caller aborts the connection next.
      }
    }
  }

  /**
   * Closes the connection from another thread at once, without waiting for the statement it runs:
   * that statement fails (connection lost) and its transaction is rolled back unless its commit was
   * already on its way.
   */
  void abort() {
    Connection c = connection;
    if (c != null) {
      try {
        c.abort(Runnable::run);
      } catch (SQLException | RuntimeException ignored) {
        // Broken already: the statement fails either way.
      }
    }
  }

  /** Whether the driver has given the connection up (the server ended it, or the socket broke). */
  boolean isBroken() {
    Connection c = connection;
    try {
      return c != null && c.isClosed();
    } catch (SQLException e) {
      return true;
    }
  }

  void close() {
    Connection c = connection;
    connection = null;
    if (c != null) {
      try {
        c.close();
      } catch (SQLException ignored) {
        // Already broken: that is why it is closed.
      }
    }
  }
}
