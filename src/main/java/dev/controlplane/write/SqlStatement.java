package dev.controlplane.write;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;

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
    for (int i = 0; i < params.length; i++) {
      Object p = params[i];
      if (p == null) {
        ps.setNull(i + 1, Types.OTHER);
      } else if (p instanceof Instant t) {
        ps.setTimestamp(i + 1, Timestamp.from(t));
      } else if (p instanceof Long l) {
        ps.setLong(i + 1, l);
      } else if (p instanceof Integer n) {
        ps.setInt(i + 1, n);
      } else if (p instanceof Boolean b) {
        ps.setBoolean(i + 1, b);
      } else if (p instanceof Double d) {
        ps.setDouble(i + 1, d);
      } else if (p instanceof byte[] bytes) {
        ps.setBytes(i + 1, bytes);
      } else {
        ps.setString(i + 1, p.toString());
      }
    }
  }
}
