package dev.controlplane.db;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;

/** Binds positional parameters of plain JDBC statements. */
public final class Params {

  private Params() {}

  /** Binds String, Long, Integer, Boolean, Double, Instant, byte[] and null, in order. */
  public static void bind(PreparedStatement ps, Object... params) throws SQLException {
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
