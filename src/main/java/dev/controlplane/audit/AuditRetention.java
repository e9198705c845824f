package dev.controlplane.audit;

import dev.controlplane.config.ControlPlaneConfig;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Deletes audit records older than {@code SERVICE_CONTROLPLANE_AUDIT_RETENTION}, as a leader duty,
 * in deletes of at most {@value #BATCH} rows (each its own short transaction, so neither a lock nor
 * the WAL grows with the backlog) and at most {@value #MAX_BATCHES} of them per run; a larger
 * backlog goes over the next runs. Not a write of the pipeline: the rows are not versioned metadata
 * and expired either way, so a deposed leader that purges once more does no harm.
 */
@ApplicationScoped
public class AuditRetention {

  static final int BATCH = 5000;
  static final int MAX_BATCHES = 20;
  private static final Logger LOG = Logger.getLogger(AuditRetention.class.getName());
  private static final String DELETE =
      "DELETE FROM audit_records WHERE id IN (SELECT id FROM audit_records WHERE at < ?"
          + " ORDER BY at LIMIT "
          + BATCH
          + ")";

  @Inject ControlPlaneConfig config;

  @Resource(lookup = "jdbc/controlplane-direct")
  DataSource dataSource;

  /** Deletes expired records; returns how many. */
  public int purge() {
    Timestamp cutoff = Timestamp.from(Instant.now().minus(config.auditRetention()));
    int total = 0;
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(DELETE)) {
      for (int i = 0; i < MAX_BATCHES; i++) {
        ps.setTimestamp(1, cutoff);
        int deleted = ps.executeUpdate();
        total += deleted;
        if (deleted < BATCH) {
          break;
        }
      }
    } catch (SQLException e) {
      LOG.warning("audit retention: deleting expired records failed; next run retries: " + e);
    }
    if (total > 0) {
      LOG.info("audit retention: deleted " + total + " record(s) older than " + cutoff.toInstant());
    }
    return total;
  }
}
