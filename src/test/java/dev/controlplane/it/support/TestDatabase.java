package dev.controlplane.it.support;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Direct access to the test database, to check what the server stored. */
public final class TestDatabase {

  public static final String USER = "controlplane";
  public static final String PASSWORD = "controlplane";

  private TestDatabase() {}

  /**
   * The test database of this test JVM: {@code it.db.url}'s, with the fork's suffix ({@link Fork}).
   */
  public static String url() {
    String configured =
        System.getProperty("it.db.url", "jdbc:postgresql://127.0.0.1:5432/controlplane_it");
    return withDatabase(configured, Fork.qualify(databaseOf(configured), "_"));
  }

  public static String url(String database) {
    return withDatabase(url(), database);
  }

  /** The test database's name, so that a run's other databases can be named after it. */
  public static String name() {
    return databaseOf(url());
  }

  private static String databaseOf(String jdbcUrl) {
    return jdbcUrl.replaceAll("^.*/([^/?]+)(\\?.*)?$", "$1");
  }

  private static String withDatabase(String jdbcUrl, String database) {
    return jdbcUrl.replaceAll("/[^/?]+(\\?.*)?$", "/" + database);
  }

  public static Connection connect() throws SQLException {
    return DriverManager.getConnection(url(), USER, PASSWORD);
  }

  /** Drops every table so the server under test starts from an empty schema. */
  public static void reset(String jdbcUrl) throws SQLException {
    try (Connection c = DriverManager.getConnection(jdbcUrl, USER, PASSWORD);
        Statement s = c.createStatement()) {
      s.execute("DROP SCHEMA IF EXISTS public CASCADE");
      s.execute("CREATE SCHEMA public");
    }
  }

  /** Drops every table, then migrates the schema with the product's Flyway migrations. */
  public static void resetAndMigrate(String jdbcUrl) throws SQLException {
    reset(jdbcUrl);
    org.flywaydb.core.Flyway.configure()
        .dataSource(jdbcUrl, USER, PASSWORD)
        .locations("classpath:db/migration")
        .load()
        .migrate();
  }

  /** A plain (unpooled) data source on {@code jdbcUrl}, as the test user. */
  public static javax.sql.DataSource dataSource(String jdbcUrl) {
    org.postgresql.ds.PGSimpleDataSource db = new org.postgresql.ds.PGSimpleDataSource();
    db.setUrl(jdbcUrl);
    db.setUser(USER);
    db.setPassword(PASSWORD);
    return db;
  }

  /** A row of metadata_updates. */
  public record LogRow(long version, String type, String kind, String key) {}

  public static List<LogRow> logRows(long afterVersion) throws SQLException {
    return logRows(url(), afterVersion);
  }

  public static List<LogRow> logRows(String jdbcUrl, long afterVersion) throws SQLException {
    try (Connection c = DriverManager.getConnection(jdbcUrl, USER, PASSWORD);
        var ps =
            c.prepareStatement(
                "SELECT version, update_type, kind, resource_key FROM metadata_updates WHERE version > ? ORDER BY version")) {
      ps.setLong(1, afterVersion);
      List<LogRow> rows = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.add(new LogRow(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4)));
        }
      }
      return rows;
    }
  }

  /** Replicas and leaderships per broker, as the {@code broker_load} view counts them. */
  public static java.util.Map<String, List<Long>> brokerLoad() throws SQLException {
    java.util.Map<String, List<Long>> out = new java.util.TreeMap<>();
    try (Connection c = connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT broker, replicas, leaders FROM broker_load")) {
      while (rs.next()) {
        out.put(rs.getString(1), List.of(rs.getLong(2), rs.getLong(3)));
      }
    }
    return out;
  }

  public static long headVersion() throws SQLException {
    return queryLong("SELECT metadata_version FROM cluster_state WHERE id = 1");
  }

  public static long retainedFrom() throws SQLException {
    return queryLong("SELECT retained_from FROM cluster_state WHERE id = 1");
  }

  /**
   * Waits until the server has marked every one of {@code brokers} down, at most 30 s: a broker
   * that stops heartbeating is marked down three heartbeats later, a versioned write the server
   * makes on its own, which must not land inside a later test that checks nothing was written.
   */
  public static void awaitBrokersDown(List<String> brokers) throws SQLException {
    String notDown =
        "SELECT count(*) FROM brokers WHERE status <> 'down' AND name IN ('"
            + String.join("', '", brokers)
            + "')";
    long deadline = System.nanoTime() + java.time.Duration.ofSeconds(30).toNanos();
    while (queryLong(notDown) > 0) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(brokers + " not all marked down within 30 s");
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted waiting for " + brokers + " to be marked down", e);
      }
    }
  }

  public static long queryLong(String sql) throws SQLException {
    return queryLong(url(), sql);
  }

  public static long queryLong(String jdbcUrl, String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection(jdbcUrl, USER, PASSWORD);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
