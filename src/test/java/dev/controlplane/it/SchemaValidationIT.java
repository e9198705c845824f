package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.it.support.Ports;
import dev.controlplane.it.support.ServerProcess;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.TestDatabase;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** By default the service validates the schema and refuses to start on a mismatch. */
class SchemaValidationIT {

  @Test
  void aNodeRefusesToStartOnADatabaseWithoutTheSchemaAndSaysWhy() throws Exception {
    String emptyDb = TestDatabase.url(TestDatabase.name() + "_empty");
    TestDatabase.reset(emptyDb);
    var env = SharedServer.baseEnvironment(Ports.free(), Ports.free(), emptyDb);
    env.remove("SERVICE_CONTROLPLANE_DB_MIGRATE");
    try (ServerProcess node = new ServerProcess("schema-validation", env).start()) {
      int exit = node.awaitExit(Duration.ofSeconds(120));
      assertThat(exit).isNotZero();
      assertThat(node.logText())
          .contains("The database schema does not match this build")
          .contains("SERVICE_CONTROLPLANE_DB_MIGRATE=migrate");
    }
    assertThat(
            TestDatabase.queryLong(
                emptyDb, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"))
        .as("validation alone changes nothing in the database")
        .isZero();
  }
}
