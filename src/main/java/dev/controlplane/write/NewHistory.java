package dev.controlplane.write;

import dev.controlplane.audit.Actor;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * A new history of metadata versions, started by a leader whose node has read versions the database
 * no longer has: it lost committed versions (restored from a backup, or failed over to a standby
 * that had not received them). Writing on from the database's head would give those versions to
 * other changes, and a broker resuming from one of them would apply the new changes on top of the
 * lost ones. {@code controlplane_start_new_history} (migration V10, the same function an operator
 * runs after a restore) moves the counter past them and drops the change log, so brokers at older
 * versions are answered OUT_OF_RANGE and take a new snapshot. Fenced like every write: the
 * transaction takes the {@code cluster_state} lock and checks the term and the version first.
 */
final class NewHistory {

  private static final String START =
      "SELECT controlplane_start_new_history(principal => ?, principal_type => ?, node => ?)";

  private NewHistory() {}

  /**
   * Starts it in a transaction of term {@code term} on a database at version {@code at}; returns
   * the new head. {@link Fenced} when the database records another term or another version.
   */
  static long start(Connection c, long term, long at, String node) throws SQLException, Fenced {
    BatchTransaction tx = new BatchTransaction(c, term, at);
    try {
      long head =
          tx.read(
              conn -> {
                try (PreparedStatement ps = conn.prepareStatement(START)) {
                  ps.setString(1, Actor.SERVICE.principal());
                  ps.setString(2, Actor.SERVICE.principalType());
                  ps.setString(3, node);
                  try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                  }
                }
              });
      tx.commit(at);
      return head;
    } catch (BatchTransaction.FencedRead f) {
      tx.rollbackQuietly();
      throw f.fenced;
    } catch (SQLException | RuntimeException e) {
      tx.rollbackQuietly();
      throw e;
    }
  }
}
