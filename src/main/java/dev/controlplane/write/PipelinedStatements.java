package dev.controlplane.write;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Sends statements of different SQL to PostgreSQL in one round trip: their texts joined with {@code
 * ;} into one prepared statement, which the driver sends as one query per statement followed by a
 * single sync. PostgreSQL runs them one after the other, as if sent apart (two upserts of one row
 * are fine, unlike in one multi-row statement), and stops at the first error. The driver prepares
 * each distinct text on the server after a few uses, as it does any statement.
 *
 * <p>Each statement's binder sets its parameters from 1, as for a statement of its own; they are
 * shifted by the parameters of the statements before it, which is also what a row of a multi-row
 * insert needs. At most {@value #MAX_PER_ROUND_TRIP} statements go in one round trip, so that the
 * replies the server queues while the driver is still sending stay small.
 */
final class PipelinedStatements {

  static final int MAX_PER_ROUND_TRIP = 64;

  private static final Map<String, Integer> PARAMETERS = new ConcurrentHashMap<>();

  private PipelinedStatements() {}

  /**
   * Runs {@code statements} in order, {@value #MAX_PER_ROUND_TRIP} per round trip; a run of
   * single-row inserts of one SQL counts as one statement ({@link MultiRowInsert}).
   */
  static void execute(Connection connection, List<SqlStatement> statements) throws SQLException {
    int from = 0;
    while (from < statements.size()) {
      StringBuilder sql = new StringBuilder();
      int to = from;
      for (int sent = 0; sent < MAX_PER_ROUND_TRIP && to < statements.size(); sent++) {
        int rows = MultiRowInsert.rowsAt(statements, to);
        sql.append(sql.isEmpty() ? "" : ";\n")
            .append(MultiRowInsert.sql(statements.get(to).sql(), rows));
        to += rows;
      }
      try (PreparedStatement ps = connection.prepareStatement(sql.toString())) {
        Shifted shifted = new Shifted(ps);
        PreparedStatement view = shifted.view();
        for (SqlStatement s : statements.subList(from, to)) {
          s.binder().bind(view);
          shifted.offset += parameters(s.sql());
        }
        ps.execute();
      }
      from = to;
    }
  }

  /**
   * The number of {@code ?} placeholders in {@code sql}, outside quoted literals and identifiers
   * (the driver's own rule for what a placeholder is; {@code ??} and dollar quoting are not used in
   * this service's SQL).
   */
  static int parameters(String sql) {
    return PARAMETERS.computeIfAbsent(sql, PipelinedStatements::count);
  }

  private static int count(String sql) {
    int[] n = {0};
    SqlText.walk(
        sql,
        0,
        c -> {
          if (c == '?') {
            n[0]++;
          }
          return true;
        });
    return n[0];
  }

  /** A view of a prepared statement whose {@code setXxx(index, …)} calls are shifted. */
  private static final class Shifted implements InvocationHandler {
    private final PreparedStatement target;
    int offset;

    Shifted(PreparedStatement target) {
      this.target = target;
    }

    PreparedStatement view() {
      return (PreparedStatement)
          Proxy.newProxyInstance(
              PreparedStatement.class.getClassLoader(),
              new Class<?>[] {PreparedStatement.class},
              this);
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      if (!method.getName().startsWith("set")
          || args == null
          || args.length < 2
          || !(args[0] instanceof Integer index)) {
        throw new UnsupportedOperationException(
            "a binder may only set parameters, not call " + method.getName());
      }
      int at = index + offset;
      // The setters the binders use, called directly: through reflection (a copy of the
      // arguments, an access check, Method.invoke) they took a tenth of the pipeline thread.
      if (args.length == 2) {
        switch (method.getName()) {
          case "setString" -> {
            target.setString(at, (String) args[1]);
            return null;
          }
          case "setLong" -> {
            target.setLong(at, (Long) args[1]);
            return null;
          }
          case "setInt" -> {
            target.setInt(at, (Integer) args[1]);
            return null;
          }
          case "setDouble" -> {
            target.setDouble(at, (Double) args[1]);
            return null;
          }
          case "setNull" -> {
            target.setNull(at, (Integer) args[1]);
            return null;
          }
          default -> {
            // Below, through reflection.
          }
        }
      }
      Object[] shifted = args.clone();
      shifted[0] = at;
      try {
        return method.invoke(target, shifted);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
    }
  }
}
