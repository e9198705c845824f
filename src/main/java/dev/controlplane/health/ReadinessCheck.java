package dev.controlplane.health;

import dev.controlplane.StartupState;
import dev.controlplane.cluster.Leadership;
import dev.controlplane.metadata.watch.WatchHub;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready when the database answers, the schema was validated at start, a leader is known, and the
 * node can read the change log (its watchers would otherwise get nothing newer).
 */
@Readiness
@ApplicationScoped
public class ReadinessCheck implements HealthCheck {

  @Inject StartupState startup;
  @Inject Leadership leadership;
  @Inject WatchHub hub;

  private final ReadinessLog transitions = new ReadinessLog();

  @Resource(lookup = "jdbc/controlplane-direct")
  DataSource dataSource;

  @Override
  public HealthCheckResponse call() {
    boolean database = databaseAnswers();
    boolean leaderKnown = leadership.leaderId().isPresent();
    Optional<Duration> unreadableLog = hub.unreadableLog();
    var builder =
        HealthCheckResponse.named("controlplane")
            .withData("database", database)
            .withData("schema", startup.isSchemaValid())
            .withData("started", startup.isStarted())
            .withData("role", leadership.role().name().toLowerCase(java.util.Locale.ROOT))
            .withData("leader", leadership.leaderId().orElse(""))
            .withData("term", leadership.knownTerm())
            .withData("metadata_version", hub.head())
            .withData("watchers", hub.watcherCount())
            .withData(
                "change_log",
                unreadableLog
                    .map(d -> "unreadable for " + d.toSeconds() + " s (the node's log says why)")
                    .orElse("ok"));
    List<String> reasons = new ArrayList<>();
    if (!startup.isStarted()) {
      reasons.add(ReadinessLog.STARTING);
    }
    if (!database) {
      reasons.add("the database does not answer (SERVICE_CONTROLPLANE_DB_URL)");
    }
    if (!startup.isSchemaValid()) {
      reasons.add("the database schema was not validated at start");
    }
    if (!leaderKnown) {
      reasons.add("no leader is known: this node reaches no majority of the cluster's members");
    }
    if (unreadableLog.isPresent()) {
      reasons.add("this node cannot read the change log (an earlier line says why)");
    }
    transitions.observe(reasons);
    return builder.status(reasons.isEmpty()).build();
  }

  /**
   * Runs a query rather than {@code Connection.isValid}: a connection that died with the database
   * only fails a statement with an SQLException, which makes the pool discard it
   * (purgePolicy=FailingConnectionOnly); isValid would return false and the dead connection would
   * go back to the pool and fail every probe after a database restart. A second attempt gets a
   * fresh connection.
   */
  private boolean databaseAnswers() {
    for (int attempt = 0; attempt < 2; attempt++) {
      try (Connection c = dataSource.getConnection();
          java.sql.Statement s = c.createStatement()) {
        s.setQueryTimeout(2);
        s.execute("SELECT 1");
        return true;
      } catch (SQLException e) {
        // the failed connection is purged; try once more with another one
      }
    }
    return false;
  }
}
