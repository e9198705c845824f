package dev.controlplane.write;

import dev.controlplane.config.ControlPlaneConfig;
import dev.controlplane.db.OwnConnection;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;

/**
 * The pipeline's own PostgreSQL connection: plain JDBC, not the application server's XA pool, so a
 * batch pays no two-phase bookkeeping and no pool checkout. Reopened after any failure. It carries
 * the node's application name like every other connection, so a new leader's claim can find and end
 * it if this node is paused inside a batch (see {@code TermStore}).
 */
final class PipelineConnection {

  private final ControlPlaneConfig config;
  private Connection connection;

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
