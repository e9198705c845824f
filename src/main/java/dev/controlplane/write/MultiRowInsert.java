package dev.controlplane.write;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Joins a run of consecutive single-row inserts with the same SQL into one multi-row {@code INSERT
 * … VALUES (…), (…)}. PostgreSQL pays its per-statement work (a portal, executor start and end, a
 * reply) once for the run instead of once per row; the rows go in their order, each row's
 * parameters after the previous row's, so the statements' binders need no change.
 *
 * <p>Only a statement whose placeholders all lie in its one {@code VALUES} row qualifies, with no
 * {@code RETURNING}. An upsert ({@code ON CONFLICT}) qualifies only for rows of distinct, known
 * scopes: PostgreSQL refuses a statement that would update one row twice, and a kind's scope is the
 * key its upsert conflicts on.
 */
final class MultiRowInsert {

  /** At most this many rows per statement, to keep a statement's parameters well under 32,767. */
  static final int MAX_ROWS = 64;

  private static final Map<String, Optional<Template>> TEMPLATES = new ConcurrentHashMap<>();

  private MultiRowInsert() {}

  /** How many statements from {@code from} on join the statement at {@code from} (at least 1). */
  static int rowsAt(List<SqlStatement> statements, int from) {
    SqlStatement first = statements.get(from);
    Template template = template(first.sql());
    if (template == null || (template.upsert && first.scope() == null)) {
      return 1;
    }
    Set<String> scopes = template.upsert ? new HashSet<>() : null;
    int rows = 0;
    while (from + rows < statements.size() && rows < MAX_ROWS) {
      SqlStatement s = statements.get(from + rows);
      if (!s.sql().equals(first.sql())
          || (scopes != null && (s.scope() == null || !scopes.add(s.scope())))) {
        break;
      }
      rows++;
    }
    return rows;
  }

  /** The SQL of {@code rows} rows of {@code sql}; {@code sql} itself for one row. */
  static String sql(String sql, int rows) {
    if (rows == 1) {
      return sql;
    }
    Template t = template(sql);
    if (t == null) {
      throw new IllegalArgumentException("not a single-row insert: " + sql);
    }
    StringBuilder out = new StringBuilder(t.head.length() + rows * (t.row.length() + 2));
    out.append(t.head).append(t.row);
    for (int i = 1; i < rows; i++) {
      out.append(", ").append(t.row);
    }
    return out.append(t.tail).toString();
  }

  static Template template(String sql) {
    return TEMPLATES.computeIfAbsent(sql, s -> Optional.ofNullable(parse(s))).orElse(null);
  }

  private static Template parse(String sql) {
    if (!sql.startsWith("INSERT INTO ")) {
      return null;
    }
    int values = sql.indexOf(" VALUES (");
    if (values < 0) {
      return null;
    }
    int open = values + " VALUES ".length();
    int close = closing(sql, open);
    if (close < 0) {
      return null;
    }
    String head = sql.substring(0, open);
    String tail = sql.substring(close + 1);
    String upperTail = tail.toUpperCase(Locale.ROOT);
    boolean upsert = upperTail.startsWith(" ON CONFLICT ");
    if ((!tail.isEmpty() && !upsert)
        || upperTail.contains("RETURNING")
        || PipelinedStatements.parameters(head) != 0
        || PipelinedStatements.parameters(tail) != 0) {
      return null;
    }
    return new Template(head, sql.substring(open, close + 1), tail, upsert);
  }

  /** The index of the parenthesis closing the one at {@code open}, outside quotes; -1 if none. */
  private static int closing(String sql, int open) {
    int[] depth = {0};
    return SqlText.walk(
        sql,
        open,
        c -> {
          if (c == '(') {
            depth[0]++;
          }
          return c != ')' || --depth[0] != 0;
        });
  }

  /** A single-row insert cut around its one row: {@code head + row + tail} is the statement. */
  record Template(String head, String row, String tail, boolean upsert) {}
}
