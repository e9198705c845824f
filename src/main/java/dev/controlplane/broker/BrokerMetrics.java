package dev.controlplane.broker;

import dev.controlplane.metadata.model.Broker;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import javax.sql.DataSource;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * Registered brokers by status, the figure to alert on when brokers go down. Counted in the
 * database when scraped (at most once a second), through the non-transactional data source: the
 * scrape runs outside any transaction of the application.
 */
@ApplicationScoped
public class BrokerMetrics {

  private static final Metadata BROKERS =
      Metadata.builder()
          .withName("controlplane.brokers")
          .withDescription("Registered brokers by status (active, draining, down); -1 if unknown")
          .build();
  private static final long FRESH_NANOS = 1_000_000_000L;

  @Inject MetricRegistry registry;

  @Resource(lookup = "jdbc/controlplane-direct")
  DataSource dataSource;

  private volatile Map<String, Long> counts;
  private volatile long countedAt;

  /** Instantiates the bean at start, so the gauges are exported before anyone uses brokers. */
  void atStart(@Observes @Initialized(ApplicationScoped.class) Object event) {}

  @PostConstruct
  void init() {
    for (Broker.Status status : Broker.Status.values()) {
      registry.gauge(BROKERS, this, m -> m.count(status.wire()), new Tag("status", status.wire()));
    }
  }

  private long count(String status) {
    Map<String, Long> current = counts;
    if (current == null || System.nanoTime() - countedAt > FRESH_NANOS) {
      try {
        current = recount();
        counts = current;
        countedAt = System.nanoTime();
      } catch (SQLException e) {
        // Keep the last counts: a database outage shows in readiness, not as brokers vanishing.
        if (current == null) {
          return -1;
        }
      }
    }
    return current.getOrDefault(status, 0L);
  }

  private Map<String, Long> recount() throws SQLException {
    Map<String, Long> out = new HashMap<>();
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement();
        ResultSet rows = s.executeQuery("SELECT status, count(*) FROM brokers GROUP BY status")) {
      while (rows.next()) {
        out.put(rows.getString(1), rows.getLong(2));
      }
    }
    return out;
  }
}
