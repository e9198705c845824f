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
