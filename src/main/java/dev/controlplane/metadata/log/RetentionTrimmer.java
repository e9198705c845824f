package dev.controlplane.metadata.log;

import dev.controlplane.config.ControlPlaneConfig;
import dev.controlplane.write.WriteContext;
import dev.controlplane.write.WritePipeline;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.PreparedStatement;
import java.sql.ResultSet;

/**
 * Drops change-log history older than the retention window (leader duty): keeps at least {@code
 * retention.min.versions} versions and every update younger than {@code retention.period}, and
 * records the new oldest retained version, in one fenced write of the pipeline.
 */
@ApplicationScoped
public class RetentionTrimmer {

  @Inject WritePipeline pipeline;
  @Inject ControlPlaneConfig config;

  public void trim() {
    long minVersions = config.retentionMinVersions();
    double minAgeSeconds = config.retentionPeriod().toMillis() / 1000.0;
    pipeline.execute(context -> trim(context, minVersions, minAgeSeconds));
  }

  private static Long trim(WriteContext context, long minVersions, double minAgeSeconds) {
    long head = context.version();
    long[] bounds =
        context.query(
            c -> {
              try (PreparedStatement ps =
                  c.prepareStatement(
                      "SELECT (SELECT retained_from FROM cluster_state WHERE id = 1),"
                          + " coalesce(min(version), ?) FROM metadata_updates"
                          + " WHERE committed_at > now() - make_interval(secs => ?)")) {
                ps.setLong(1, head + 1);
                ps.setDouble(2, minAgeSeconds);
                try (ResultSet rs = ps.executeQuery()) {
                  rs.next();
                  return new long[] {rs.getLong(1), rs.getLong(2)};
                }
              }
            });
    long newFrom = Math.min(head - minVersions + 1, bounds[1]);
    if (newFrom <= bounds[0]) {
      return bounds[0];
    }
    context.routine();
    context.sql("DELETE FROM metadata_updates WHERE version < ?", newFrom);
    context.sql("UPDATE cluster_state SET retained_from = ? WHERE id = 1", newFrom);
    return newFrom;
  }
}
