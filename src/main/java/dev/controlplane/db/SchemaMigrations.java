package dev.controlplane.db;

import dev.controlplane.config.ControlPlaneConfig.MigrateMode;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.ValidateResult;

/**
 * Brings the schema to the version this build expects, or checks that it is there. The migrations
 * are the files of {@code db-migrations/}, packaged at {@code db/migration}; a DBA can apply the
 * same files with the Flyway CLI or the Maven plugin.
 */
public final class SchemaMigrations {

  private static final Logger LOG = Logger.getLogger(SchemaMigrations.class.getName());

  private final Flyway flyway;

  public SchemaMigrations(DataSource dataSource) {
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
    switch (mode) {
      case MIGRATE -> {
        var result = flyway.migrate();
        LOG.info(
            "schema migrated to version "
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
              + "). Apply the migrations in db-migrations/ (flyway migrate, or start once with"
              + " SERVICE_CONTROLPLANE_DB_MIGRATE=migrate) or run the build that matches the schema.");
    }
    LOG.info("schema is valid at version " + flyway.info().current().getVersion());
  }

  /** The schema is missing, behind, ahead or altered. */
  public static final class SchemaMismatchException extends RuntimeException {
    public SchemaMismatchException(String message) {
      super(message);
    }
  }
}
