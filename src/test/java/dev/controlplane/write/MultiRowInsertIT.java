package dev.controlplane.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.controlplane.it.support.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Joined inserts against a real PostgreSQL: what the server accepts and refuses. */
class MultiRowInsertIT {

  private static final String UPSERT =
      "INSERT INTO kv (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v";
  private static final String INSERT = "INSERT INTO kv (k, v) VALUES (?, ?)";

  private Connection connection;

  @BeforeEach
  void table() throws SQLException {
    // A table of this session only: the test database's schema stays the server's.
    connection = TestDatabase.connect();
    try (Statement s = connection.createStatement()) {
      s.execute("CREATE TEMP TABLE kv (k text PRIMARY KEY, v int NOT NULL)");
    }
  }

  @AfterEach
  void close() throws SQLException {
    connection.close();
  }

  @Test
  void twoUpsertsOfOneRowInOneRunBothApplyInOrder() throws SQLException {
    PipelinedStatements.execute(
        connection,
        List.of(
            upsert("a", 1),
            upsert("b", 2),
            upsert("a", 3),
            upsert("c", 4),
            upsert("b", 5),
            upsert("a", 6)));

    assertThat(rows()).containsExactly(Map.entry("a", 6), Map.entry("b", 5), Map.entry("c", 4));
  }

  @Test
  void aRefusedRowFailsItsRunWithTheConstraintsStateAndTheTransactionWritesNothing()
      throws SQLException {
    assertThatThrownBy(
            () ->
                PipelinedStatements.execute(
                    connection,
                    List.of(
                        SqlStatement.of("BEGIN"),
                        SqlStatement.of(INSERT, "x", 1),
                        SqlStatement.of(INSERT, "y", 2),
                        SqlStatement.of(INSERT, "x", 3),
                        SqlStatement.of("COMMIT"))))
        .isInstanceOf(SQLException.class)
        .extracting(e -> ((SQLException) e).getSQLState())
        .as("a unique violation, which the pipeline pins on its operation by running each alone")
        .isEqualTo("23505");
    try (Statement s = connection.createStatement()) {
      s.execute("ROLLBACK");
    }
    assertThat(rows()).isEmpty();
  }

  @Test
  void joinedRowsKeepEachRowsValuesAcrossSeveralRoundTripsOfText() throws SQLException {
    List<SqlStatement> many = new ArrayList<>();
    for (int i = 0; i < MultiRowInsert.MAX_ROWS * 3 + 5; i++) {
      many.add(SqlStatement.of(INSERT, "k" + i, i));
    }
    // The driver prepares a text on the server after its fifth use: the same batch six times.
    for (int round = 0; round < 6; round++) {
      try (Statement s = connection.createStatement()) {
        s.execute("TRUNCATE kv");
      }
      PipelinedStatements.execute(connection, many);
    }

    Map<String, Integer> rows = rows();
    assertThat(rows).hasSize(many.size());
    rows.forEach((k, v) -> assertThat(k).isEqualTo("k" + v));
  }

  private static SqlStatement upsert(String key, int value) {
    return new SqlStatement(UPSERT, ps -> SqlStatement.bindAll(ps, key, value), "t/" + key);
  }

  private Map<String, Integer> rows() throws SQLException {
    Map<String, Integer> rows = new LinkedHashMap<>();
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT k, v FROM kv ORDER BY k")) {
      while (rs.next()) {
        rows.put(rs.getString(1), rs.getInt(2));
      }
    }
    return rows;
  }
}
