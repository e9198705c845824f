package dev.controlplane.write;

import dev.controlplane.db.Params;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * One row change for the batch transaction: a parameterised statement, how to bind it, and the
 * resource it touches. Consecutive statements with the same SQL run as one JDBC batch; {@link
 * StatementOrder} may move a statement next to an earlier one with the same SQL when nothing it
 * passes touches the same resource or one above or below it ({@code scope}, a resource path such as
 * {@code acme/orders/payments}; null for a side record, which nothing passes).
 */
public record SqlStatement(String sql, Binder binder, String scope) {

  /** A side record: no statement is moved past it. */
  public SqlStatement(String sql, Binder binder) {
    this(sql, binder, null);
  }

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
