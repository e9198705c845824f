package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.it.support.Ports;
import dev.controlplane.it.support.ServerProcess;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.TestDatabase;
import java.sql.DriverManager;
import java.time.Duration;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

/** By default the service validates the schema and refuses to start on a mismatch. */
class SchemaValidationIT {

  private static final Duration EXIT_WITHIN = Duration.ofSeconds(60);

  private static String emptyDatabase() throws Exception {
    String url = TestDatabase.url(TestDatabase.name() + "_empty");
    TestDatabase.reset(url);
    return url;
  }

  private static ServerProcess validatingNode(String name, String dbUrl) throws Exception {
    var env = SharedServer.baseEnvironment(Ports.free(), Ports.free(), dbUrl);
    env.remove("SERVICE_CONTROLPLANE_DB_MIGRATE");
    env.remove("SERVICE_CONTROLPLANE_OPERATOR_TOKEN");
    env.remove("SERVICE_CONTROLPLANE_BROKER_TOKEN");
    return new ServerProcess(name, env).start();
  }

  @Test
  void aNodeRefusesToStartOnAnEmptyDatabaseAndSaysItIsEmpty() throws Exception {
    String emptyDb = emptyDatabase();
    long started = System.nanoTime();
    try (ServerProcess node = validatingNode("schema-empty", emptyDb)) {
      int exit = node.awaitExit(EXIT_WITHIN);
      assertThat(exit).isEqualTo(3);
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(EXIT_WITHIN);
      assertThat(node.logText())
          .contains("control plane cannot run: The database is empty")
          .contains("SERVICE_CONTROLPLANE_DB_MIGRATE=migrate")
          .as("a node without credentials says so at start")
          .contains("SERVICE_CONTROLPLANE_OPERATOR_TOKEN is not set")
          .contains("SERVICE_CONTROLPLANE_BROKER_TOKEN is not set");
    }
    assertThat(
            TestDatabase.queryLong(
                emptyDb, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"))
        .as("validation alone changes nothing in the database")
        .isZero();
  }

  @Test
  void aNodeRefusesASchemaAheadOfItsBuild() throws Exception {
    String db = emptyDatabase();
    Flyway.configure()
        .dataSource(db, TestDatabase.USER, TestDatabase.PASSWORD)
        .locations("filesystem:db-migrations")
        .load()
        .migrate();
    try (var c = DriverManager.getConnection(db, TestDatabase.USER, TestDatabase.PASSWORD);
        var s = c.createStatement()) {
      s.execute(
          "INSERT INTO flyway_schema_history (installed_rank, version, description, type, script,"
              + " checksum, installed_by, execution_time, success)"
              + " SELECT max(installed_rank) + 1, '99', 'from a newer build', 'SQL',"
              + " 'V99__from_a_newer_build.sql', 1, current_user, 1, true FROM flyway_schema_history");
    }
    long started = System.nanoTime();
    try (ServerProcess node = validatingNode("schema-ahead", db)) {
      int exit = node.awaitExit(EXIT_WITHIN);
      assertThat(exit).isEqualTo(3);
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(EXIT_WITHIN);
      assertThat(node.logText())
          .contains("control plane cannot run: The database schema is ahead of this build")
          .contains("99");
    }
  }
}
