package dev.controlplane.cluster;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * The fencing token in PostgreSQL: {@code cluster_state.leader_term} and who holds it. Plain JDBC
 * in auto-commit on the non-transactional data source, so that the Raft monitor thread (not a
 * managed thread) can claim and read it without a JTA context.
 */
public final class TermStore {

  private static final String CLAIM =
      "UPDATE cluster_state SET leader_term = leader_term + 1, leader_node = ?, leader_since = now(),"
          + " leader_raft_term = ?, leader_http = ?, leader_grpc = ?, leader_seen_at = now() WHERE id = 1";
  private static final String RETURNING = " RETURNING leader_term";

  private static final java.util.logging.Logger LOG =
      java.util.logging.Logger.getLogger(TermStore.class.getName());
  private static final String LOCK_NOT_AVAILABLE = "55P03";
  private static final long LOCK_WAIT_MILLIS = 200;

  private final DataSource dataSource;

  public TermStore(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /**
   * What a claim found: the term it won, or the holder it has to wait for.
   *
   * @param term the term won; 0 when the claim was refused
   * @param holder the node that holds the term when refused
   * @param holderRaftTerm the Raft term the holder won it in
   * @param leaseLeft how much longer the holder's lease runs (zero when it has run out)
   */
  public record Claim(long term, String holder, long holderRaftTerm, java.time.Duration leaseLeft) {
    public boolean won() {
      return term > 0;
    }
  }

  /**
   * Records a new term for this node, one above every term recorded before. From the moment this
   * commits, writes by holders of older terms fail. Unless {@code force}, the claim is refused
   * while another node's lease is younger than {@code lease} (the holder still counts itself leader
   * until then), and while a leader of a later Raft term holds the term, unless that leader has not
   * renewed it for {@code staleAfter}.
   */
  public Claim claim(
      String nodeId,
      long raftTerm,
      String http,
      String grpc,
      boolean force,
      java.time.Duration lease,
      java.time.Duration staleAfter)
      throws SQLException {
    String sql =
        CLAIM
            + (force
                ? ""
                : " AND (leader_node = ? OR leader_seen_at IS NULL"
                    + " OR leader_seen_at <= now() - make_interval(secs => ?))"
                    + " AND (leader_raft_term <= ? OR leader_seen_at IS NULL"
                    + " OR leader_seen_at < now() - make_interval(secs => ?))")
            + RETURNING;
    Binder bind =
        ps -> {
          ps.setString(1, nodeId);
          ps.setLong(2, raftTerm);
          ps.setString(3, http);
          ps.setString(4, grpc);
          if (!force) {
            ps.setString(5, nodeId);
            ps.setDouble(6, seconds(lease));
            ps.setLong(7, raftTerm);
            ps.setDouble(8, seconds(staleAfter));
          }
        };
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      try {
        try {
          return claimOnce(c, sql, bind, lease);
        } catch (SQLException e) {
          c.rollback();
          if (!LOCK_NOT_AVAILABLE.equals(e.getSQLState())) {
            throw e;
          }
        }
        int terminated = terminateDeposedWriters(c);
        LOG.warning(
            "node "
                + nodeId
                + ": the fencing row was held by "
                + terminated
                + " session(s) of a deposed leader (paused or cut off inside a write);"
                + " terminated them to claim Raft term "
                + raftTerm);
        return claimOnce(c, sql, bind, lease);
      } finally {
        c.setAutoCommit(true);
      }
    }
  }

  private static double seconds(java.time.Duration d) {
    return d.toMillis() / 1000.0;
  }

  /** Sets the parameters of a prepared statement. */
  private interface Binder {
    void bind(PreparedStatement ps) throws SQLException;
  }

  private static Claim claimOnce(Connection c, String sql, Binder bind, java.time.Duration lease)
      throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("SET LOCAL lock_timeout = '" + LOCK_WAIT_MILLIS + "ms'");
    }
    Claim claim;
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setQueryTimeout(5);
      bind.bind(ps);
      try (ResultSet rs = ps.executeQuery()) {
        claim = rs.next() ? new Claim(rs.getLong(1), null, 0, java.time.Duration.ZERO) : null;
      }
    }
    if (claim == null) {
      claim = refusedBy(c, lease);
    }
    c.commit();
    return claim;
  }

  /** Who holds the term that a claim could not take, and how long its lease still runs. */
  private static Claim refusedBy(Connection c, java.time.Duration lease) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT leader_node, leader_raft_term, coalesce(greatest(0, ceil(extract(epoch FROM"
                + " leader_seen_at + make_interval(secs => ?) - now()) * 1000)), 0)::bigint"
                + " FROM cluster_state WHERE id = 1")) {
      ps.setQueryTimeout(5);
      ps.setDouble(1, seconds(lease));
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return new Claim(
            0, rs.getString(1), rs.getLong(2), java.time.Duration.ofMillis(rs.getLong(3)));
      }
    }
  }

  /**
   * Ends the sessions that hold the fencing row locked. Only a leader writes, and a majority has
   * just elected this node, so whoever holds the row is a deposed leader that stopped inside a
   * write transaction (a long pause, or cut off from the cluster but not from the database).
   * PostgreSQL would keep that transaction, and the lock, for as long as its client stays silent.
   * Every node logs in as the same role, which may end its own sessions.
   */
  private static int terminateDeposedWriters(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_locks"
                    + " WHERE relation = 'cluster_state'::regclass AND granted"
                    + " AND mode IN ('RowShareLock', 'RowExclusiveLock')"
                    + " AND pid <> pg_backend_pid()")) {
      rs.next();
      int terminated = rs.getInt(1);
      c.commit();
      return terminated;
    }
  }

  /**
   * Renews the lease of term {@code term}; false when another term is recorded now, or when the
   * lease was given up ({@link #release}): a renewal that was under way while its node stepped down
   * must not extend a lease the node no longer wants.
   */
  public boolean renew(long term) throws SQLException {
    return updateLease(
        "UPDATE cluster_state SET leader_seen_at = now()"
            + " WHERE id = 1 AND leader_term = ? AND leader_seen_at IS NOT NULL",
        term);
  }

  /**
   * Gives up the lease of term {@code term}, so a successor can claim at once instead of waiting
   * for it to run out; nothing happens when another term is recorded now.
   */
  public boolean release(long term) throws SQLException {
    return updateLease(
        "UPDATE cluster_state SET leader_seen_at = NULL WHERE id = 1 AND leader_term = ?", term);
  }

  private boolean updateLease(String sql, long term) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      c.setAutoCommit(true);
      ps.setQueryTimeout(5);
      ps.setLong(1, term);
      return ps.executeUpdate() == 1;
    }
  }

  /**
   * Which database this is ({@code cluster_state.database_id}, migration V11), and where the
   * connection found it, for the messages that name it.
   */
  public DatabaseIdentity databaseIdentity() throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT database_id, current_database(), coalesce(host(inet_server_addr()),"
                    + " 'a local socket'), coalesce(inet_server_port(), 0)"
                    + " FROM cluster_state WHERE id = 1")) {
      c.setAutoCommit(true);
      ps.setQueryTimeout(5);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new SQLException("cluster_state has no row: the schema was not migrated");
        }
        return new DatabaseIdentity(
            rs.getObject(1, java.util.UUID.class),
            "database '" + rs.getString(2) + "' on " + rs.getString(3) + ":" + rs.getInt(4));
      }
    }
  }

  /** The leadership as recorded now. */
  public LeaderRecord read() throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT leader_term, leader_raft_term, leader_node, leader_http, leader_grpc,"
                    + " database_id FROM cluster_state WHERE id = 1")) {
      c.setAutoCommit(true);
      ps.setQueryTimeout(5);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return LeaderRecord.NONE;
        }
        return new LeaderRecord(
            rs.getLong(1),
            rs.getLong(2),
            rs.getString(3),
            rs.getString(4),
            rs.getString(5),
            rs.getObject(6, java.util.UUID.class));
      }
    }
  }
}
