package dev.controlplane.write;

import dev.controlplane.db.Params;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * One row change for the batch transaction: a parameterised statement and how to bind it.
 * Consecutive statements with the same SQL run as one JDBC batch.
 */
public record SqlStatement(String sql, Binder binder) {

  /** Sets the parameters of the prepared statement. */
  @FunctionalInterface
  public interface Binder {
    void bind(PreparedStatement ps) throws SQLException;
  }

  /** A statement with positional parameters: String, Long, Integer, Boolean, Instant, byte[]. */
  public static SqlStatement of(String sql, Object... params) {
    return new SqlStatement(sql, ps -> bindAll(ps, params));
  }

  static void bindAll(PreparedStatement ps, Object... params) throws SQLException {
    Params.bind(ps, params);
  }
}
