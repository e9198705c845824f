package dev.controlplane.db;

import dev.controlplane.config.ControlPlaneConfig.MigrateMode;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Optional;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationState;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.output.ValidateResult;

/**
 * Brings the schema to the version this build expects, or checks that it is there. The migrations
 * are the files of {@code db-migrations/}, packaged at {@code db/migration}; a DBA can apply the
 * same files with the Flyway CLI or the Maven plugin.
 */
public final class SchemaMigrations {

  private static final Logger LOG = Logger.getLogger(SchemaMigrations.class.getName());
  private static final String HOW_TO_MIGRATE =
      "Apply the migrations in db-migrations/ (flyway migrate, ./mvnw flyway:migrate, or start once"
          + " with SERVICE_CONTROLPLANE_DB_MIGRATE=migrate)";

  private final DataSource dataSource;
  private final Flyway flyway;

  public SchemaMigrations(DataSource dataSource) {
    this.dataSource = dataSource;
    this.flyway =
        Flyway.configure(SchemaMigrations.class.getClassLoader())
            .dataSource(dataSource)
            .locations("classpath:db/migration")
            .validateMigrationNaming(true)
            .load();
  }

  /**
   * Applies or validates; throws {@link SchemaMismatchException} with an operator-facing message.
   */
  public void prepare(MigrateMode mode) {
    try {
      prepareReachable(mode);
    } catch (RuntimeException e) {
      throw unreachable(e).orElseThrow(() -> e);
    }
  }

  /**
   * The database cannot be reached or refuses this node's connections: the first thing a new node
   * meets, and it was reported as Flyway's exception and its stack, naming no setting. The one line
   * says which settings to check; the database's own words (never a password) stay in it.
   */
  static Optional<DatabaseUnreachableException> unreachable(Throwable failure) {
    if (!dev.controlplane.error.Failures.isDatabaseUnavailable(failure)) {
      return Optional.empty();
    }
    SQLException deepest = null;
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql) {
        deepest = sql;
      }
    }
    String state = deepest == null || deepest.getSQLState() == null ? "" : deepest.getSQLState();
    String check =
        state.startsWith("28")
            ? "check SERVICE_CONTROLPLANE_DB_USER and SERVICE_CONTROLPLANE_DB_PASSWORD"
            : state.equals("3D000")
                ? "check the database name in SERVICE_CONTROLPLANE_DB_URL"
                : "check SERVICE_CONTROLPLANE_DB_URL and that PostgreSQL runs and accepts"
                    + " connections";
    String said = deepest != null ? deepest.getMessage() : failure.getMessage();
    return Optional.of(
        new DatabaseUnreachableException(
            "cannot connect to the database: " + said + " (" + check + ")"));
  }

  private void prepareReachable(MigrateMode mode) {
    switch (mode) {
      case MIGRATE -> {
        refuseSchemaAheadOfBuild();
        var result = flyway.migrate();
        // Flyway leaves the target version empty when it applied nothing, the initial one when the
        // schema was empty.
        LOG.info(
            result.migrationsExecuted == 0
                ? "schema at version " + result.initialSchemaVersion + ", up to date"
                : "schema migrated from "
                    + (result.initialSchemaVersion == null
                        ? "an empty database"
                        : "version " + result.initialSchemaVersion)
                    + " to version "
                    + result.targetSchemaVersion
                    + " ("
                    + result.migrationsExecuted
                    + " applied)");
        validate();
      }
      case VALIDATE -> validate();
      case NONE ->
          LOG.warning("schema validation is switched off (SERVICE_CONTROLPLANE_DB_MIGRATE=none)");
    }
  }

  private void validate() {
    refuseEmptyDatabase();
    refuseSchemaAheadOfBuild();
    ValidateResult result = flyway.validateWithResult();
    if (!result.validationSuccessful) {
      String details =
          result.invalidMigrations.stream()
              .map(
                  m ->
                      (m.version == null ? m.filepath : "version " + m.version)
                          + ": "
                          + m.errorDetails.errorMessage)
              .collect(Collectors.joining("; "));
      throw new SchemaMismatchException(
          "The database schema does not match this build ("
              + (details.isEmpty() ? result.getAllErrorMessages() : details)
              + "). "
              + HOW_TO_MIGRATE
              + " or run the build that matches the schema.");
    }
    LOG.info("schema is valid at version " + flyway.info().current().getVersion());
  }

  /** No migration applied at all: say so plainly rather than list every pending migration. */
  private void refuseEmptyDatabase() {
    if (flyway.info().applied().length > 0) {
      return;
    }
    long tables = tableCount();
    throw new SchemaMismatchException(
        (tables == 0
                ? "The database is empty: it has no control plane schema (no tables)."
                : "The database has "
                    + tables
                    + " table(s) but no control plane schema history (flyway_schema_history).")
            + " "
            + HOW_TO_MIGRATE
            + ".");
  }

  /**
   * Flyway's validate ignores applied migrations it does not know when they are newer than the
   * newest it has ("future" migrations). A newer build ran them, and this build would write data
   * the newer schema does not expect, so the node refuses, as docs/configuration.md promises.
   */
  private void refuseSchemaAheadOfBuild() {
    MigrationInfo[] all = flyway.info().all();
    Optional<MigrationVersion> newestKnown =
        Arrays.stream(all)
            .filter(m -> m.getState() != MigrationState.FUTURE_SUCCESS)
            .filter(m -> m.getState() != MigrationState.FUTURE_FAILED)
            .map(MigrationInfo::getVersion)
            .filter(v -> v != null)
            .max(Comparator.naturalOrder());
    String future =
        Arrays.stream(all)
            .filter(
                m ->
                    m.getState() == MigrationState.FUTURE_SUCCESS
                        || m.getState() == MigrationState.FUTURE_FAILED)
            .map(m -> m.getVersion().getVersion())
            .collect(Collectors.joining(", "));
    if (!future.isEmpty()) {
      throw new SchemaMismatchException(
          "The database schema is ahead of this build: it has migration(s) "
              + future
              + " that this build does not know (its newest is "
              + newestKnown.map(MigrationVersion::getVersion).orElse("none")
              + "). A newer build migrated it; run that build (or a newer one) against this"
              + " database.");
    }
  }

  private long tableCount() {
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT count(*) FROM information_schema.tables"
                    + " WHERE table_schema = current_schema()")) {
      rs.next();
      return rs.getLong(1);
    } catch (SQLException e) {
      throw new SchemaMismatchException("cannot read the database's tables: " + e.getMessage());
    }
  }

  /** The database refused this node's connections, or could not be reached, at start. */
  public static final class DatabaseUnreachableException extends RuntimeException {
    public DatabaseUnreachableException(String message) {
      super(message);
    }
  }

  /** The schema is missing, behind, ahead or altered. */
  public static final class SchemaMismatchException extends RuntimeException {
    public SchemaMismatchException(String message) {
      super(message);
    }
  }
}
