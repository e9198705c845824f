package dev.controlplane.health;

import dev.controlplane.StartupState;
import dev.controlplane.cluster.Leadership;
import dev.controlplane.metadata.watch.WatchHub;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Ready when the database answers, the schema was validated at start, and a leader is known. */
@Readiness
@ApplicationScoped
public class ReadinessCheck implements HealthCheck {

  @Inject StartupState startup;
  @Inject Leadership leadership;
  @Inject WatchHub hub;

  @Resource(lookup = "jdbc/controlplane-direct")
  DataSource dataSource;

  @Override
  public HealthCheckResponse call() {
    boolean database = databaseAnswers();
    boolean leaderKnown = leadership.leaderId().isPresent();
    var builder =
        HealthCheckResponse.named("controlplane")
            .withData("database", database)
            .withData("schema", startup.isSchemaValid())
            .withData("started", startup.isStarted())
            .withData("role", leadership.role().name().toLowerCase(java.util.Locale.ROOT))
            .withData("leader", leadership.leaderId().orElse(""))
            .withData("term", leadership.knownTerm())
            .withData("metadata_version", hub.head())
            .withData("watchers", hub.watcherCount());
    return builder.status(database && startup.isStarted() && startup.isSchemaValid() && leaderKnown).build();
  }

  private boolean databaseAnswers() {
    try (Connection c = dataSource.getConnection()) {
      return c.isValid(2);
    } catch (SQLException e) {
      return false;
    }
  }
}
