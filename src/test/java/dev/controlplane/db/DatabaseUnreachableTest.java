package dev.controlplane.db;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** What a start that cannot reach its database says: the settings to check, in one line. */
class DatabaseUnreachableTest {

  private static RuntimeException flyway(String message, String state) {
    return new RuntimeException(
        "Unable to obtain connection from database: " + message, new SQLException(message, state));
  }

  @Test
  void aRefusedPasswordNamesTheUserAndPasswordSettings() {
    var refused =
        SchemaMigrations.unreachable(
            flyway("FATAL: password authentication failed for user \"cp\"", "28P01"));
    assertThat(refused)
        .hasValueSatisfying(
            e ->
                assertThat(e.getMessage())
                    .isEqualTo(
                        "cannot connect to the database: FATAL: password authentication failed"
                            + " for user \"cp\" (check SERVICE_CONTROLPLANE_DB_USER and"
                            + " SERVICE_CONTROLPLANE_DB_PASSWORD)"));
  }

  @Test
  void aServerThatIsNotThereOrADatabaseThatIsNotNamesTheUrl() {
    assertThat(SchemaMigrations.unreachable(flyway("Connection to 127.0.0.1:1 refused", "08001")))
        .hasValueSatisfying(
            e ->
                assertThat(e.getMessage())
                    .endsWith(
                        "(check SERVICE_CONTROLPLANE_DB_URL and that PostgreSQL runs and accepts"
                            + " connections)"));
    assertThat(
            SchemaMigrations.unreachable(
                flyway("FATAL: database \"nope\" does not exist", "3D000")))
        .hasValueSatisfying(
            e ->
                assertThat(e.getMessage())
                    .endsWith("(check the database name in SERVICE_CONTROLPLANE_DB_URL)"));
  }

  @Test
  void otherFailuresAreNotTakenForIt() {
    assertThat(SchemaMigrations.unreachable(flyway("syntax error", "42601"))).isEmpty();
    assertThat(SchemaMigrations.unreachable(new IllegalStateException("bug"))).isEmpty();
  }
}
