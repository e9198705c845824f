package dev.controlplane.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class PipelinedStatementsTest {

  @Test
  void placeholdersAreCountedOutsideQuotedLiteralsAndIdentifiersOnly() {
    assertEquals(0, PipelinedStatements.parameters("SELECT 1"));
    assertEquals(
        3,
        PipelinedStatements.parameters(
            "INSERT INTO t (a, \"b?\") VALUES (?, ?) ON CONFLICT (a) DO UPDATE SET c = '?' || ?"));
    assertEquals(1, PipelinedStatements.parameters("UPDATE t SET note = 'it''s ?' WHERE id = ?"));
  }

  @Test
  void eachStatementsParametersFollowThoseOfTheStatementsBeforeItInOneRoundTrip() throws Exception {
    Recorder db = new Recorder();
    Timestamp at = Timestamp.valueOf("2026-11-24 22:00:00");
    PipelinedStatements.execute(
        db.connection(),
        List.of(
            new SqlStatement(
                "INSERT INTO a VALUES (?, ?)",
                ps -> {
                  ps.setTimestamp(1, at);
                  ps.setBoolean(2, true);
                }),
            new SqlStatement(
                "UPDATE b SET c = ?, e = ?, h = ? WHERE d = ? AND i = ?",
                ps -> {
                  ps.setString(1, "x");
                  ps.setLong(2, 7L);
                  ps.setDouble(3, 0.5);
                  ps.setNull(4, Types.OTHER);
                  ps.setInt(5, 9);
                }),
            SqlStatement.of("DELETE FROM f WHERE g = ?", 5)));

    assertThat(db.sql)
        .containsExactly(
            "INSERT INTO a VALUES (?, ?);\nUPDATE b SET c = ?, e = ?, h = ? WHERE d = ? AND i = ?;\n"
                + "DELETE FROM f WHERE g = ?");
    assertThat(db.calls)
        .containsExactly(
            "setTimestamp(1, " + at + ")",
            "setBoolean(2, true)",
            "setString(3, x)",
            "setLong(4, 7)",
            "setDouble(5, 0.5)",
            "setNull(6, " + Types.OTHER + ")",
            "setInt(7, 9)",
            "setInt(8, 5)",
            "execute()",
            "close()");
  }

  @Test
  void aRunOfSingleRowInsertsGoesAsOneMultiRowInsertWithTheRowsParametersInOrder()
      throws Exception {
    Recorder db = new Recorder();
    String insert = "INSERT INTO log (v, p) VALUES (?, ?::jsonb)";
    PipelinedStatements.execute(
        db.connection(),
        List.of(
            SqlStatement.of(insert, 1L, "a"),
            SqlStatement.of(insert, 2L, "b"),
            SqlStatement.of("DELETE FROM f WHERE g = ?", 5),
            SqlStatement.of(insert, 3L, "c")));

    assertThat(db.sql)
        .containsExactly(
            "INSERT INTO log (v, p) VALUES (?, ?::jsonb), (?, ?::jsonb);\n"
                + "DELETE FROM f WHERE g = ?;\n"
                + insert);
    assertThat(db.calls)
        .containsExactly(
            "setLong(1, 1)",
            "setString(2, a)",
            "setLong(3, 2)",
            "setString(4, b)",
            "setInt(5, 5)",
            "setLong(6, 3)",
            "setString(7, c)",
            "execute()",
            "close()");
  }

  @Test
  void upsertsJoinOnlyForDistinctKnownScopes() throws Exception {
    String upsert =
        "INSERT INTO s (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v";
    Recorder db = new Recorder();
    PipelinedStatements.execute(
        db.connection(),
        List.of(
            new SqlStatement(upsert, ps -> SqlStatement.bindAll(ps, "a", 1), "t/a"),
            new SqlStatement(upsert, ps -> SqlStatement.bindAll(ps, "b", 2), "t/b"),
            new SqlStatement(upsert, ps -> SqlStatement.bindAll(ps, "a", 3), "t/a"),
            new SqlStatement(upsert, ps -> SqlStatement.bindAll(ps, "c", 4)),
            new SqlStatement(upsert, ps -> SqlStatement.bindAll(ps, "d", 5))));

    String two = upsert.replace("VALUES (?, ?)", "VALUES (?, ?), (?, ?)");
    assertThat(db.sql)
        .as("a second row of one scope, or a row of no known scope, starts a statement of its own")
        .containsExactly(String.join(";\n", two, upsert, upsert, upsert));
  }

  @Test
  void insertsWithParametersOutsideTheirRowOrReturningRowsAreNotJoined() throws Exception {
    String load =
        "INSERT INTO l (b, n) VALUES (?, greatest(?, 0)) ON CONFLICT (b) DO UPDATE SET n = l.n + ?";
    String returning = "INSERT INTO r (v) VALUES (?) RETURNING id";
    String selected = "INSERT INTO q (v) SELECT ? WHERE true";
    Recorder db = new Recorder();
    List<SqlStatement> statements = new ArrayList<>();
    for (String sql : List.of(load, returning, selected)) {
      int params = PipelinedStatements.parameters(sql);
      for (String scope : List.of("x", "y")) {
        statements.add(
            new SqlStatement(sql, ps -> SqlStatement.bindAll(ps, new Object[params]), scope));
      }
    }
    PipelinedStatements.execute(db.connection(), statements);

    assertThat(db.sql)
        .containsExactly(String.join(";\n", load, load, returning, returning, selected, selected));
    assertThat(MultiRowInsert.sql("INSERT INTO a VALUES (f('(', ?), ?)", 2))
        .as("parentheses inside literals do not end the row")
        .isEqualTo("INSERT INTO a VALUES (f('(', ?), ?), (f('(', ?), ?)");
  }

  @Test
  void aRunLongerThanTheRowLimitIsSplit() throws Exception {
    Recorder db = new Recorder();
    List<SqlStatement> rows = new ArrayList<>();
    for (long i = 0; i < MultiRowInsert.MAX_ROWS + 1; i++) {
      rows.add(SqlStatement.of("INSERT INTO log (v) VALUES (?)", i));
    }
    PipelinedStatements.execute(db.connection(), rows);

    assertThat(db.sql).hasSize(1);
    assertThat(db.sql.get(0).split(";\n"))
        .extracting(sql -> PipelinedStatements.parameters(sql))
        .containsExactly(MultiRowInsert.MAX_ROWS, 1);
    assertThat(db.calls).contains("setLong(" + (MultiRowInsert.MAX_ROWS + 1) + ", 64)");
  }

  @Test
  void aBinderThatDoesMoreThanSetParametersIsRefused() {
    Recorder db = new Recorder();
    assertThatThrownBy(
            () ->
                PipelinedStatements.execute(
                    db.connection(), List.of(new SqlStatement("SELECT ?", ps -> ps.execute()))))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("execute");
    assertThat(db.calls).containsExactly("close()");
  }

  /** A connection whose prepared statements record what is called on them. */
  private static final class Recorder {
    final List<String> sql = new ArrayList<>();
    final List<String> calls = new ArrayList<>();

    Connection connection() {
      return (Connection)
          Proxy.newProxyInstance(
              getClass().getClassLoader(),
              new Class<?>[] {Connection.class},
              (proxy, method, args) -> {
                if (!method.getName().equals("prepareStatement")) {
                  throw new UnsupportedOperationException(method.getName());
                }
                sql.add((String) args[0]);
                return statement();
              });
    }

    private PreparedStatement statement() {
      return (PreparedStatement)
          Proxy.newProxyInstance(
              getClass().getClassLoader(),
              new Class<?>[] {PreparedStatement.class},
              (proxy, method, args) -> {
                String args0 = args == null ? "" : String.join(", ", strings(args));
                calls.add(method.getName() + "(" + args0 + ")");
                return method.getReturnType() == boolean.class ? Boolean.FALSE : null;
              });
    }

    private static List<String> strings(Object[] args) {
      return Arrays.stream(args).map(String::valueOf).toList();
    }
  }
}
