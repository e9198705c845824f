package dev.controlplane.auth;

import dev.controlplane.config.AuthConfig;
import dev.controlplane.write.WriteContext;
import dev.controlplane.write.WritePipeline;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;

/**
 * The key lifecycle as a leader duty: activates next keys whose publication lead has passed (the
 * previous active key turns passive until every token it signed has expired), retires passive keys
 * after that, publishes a next key when a key's rotation period is about to end, and gives a tenant
 * without an active key its first. Each step is a write of the pipeline, so a deposed leader's
 * rotation commits nothing; each reads the keys inside its batch, after the step before it.
 */
@ApplicationScoped
public class KeyRotation {

  private static final Logger LOG = Logger.getLogger(KeyRotation.class.getName());
  private static final int MISSING_PER_STEP = 100;

  @Inject AuthConfig config;
  @Inject SigningKeys keys;
  @Inject WritePipeline pipeline;

  public void advance() {
    pipeline.execute(this::activateDue);
    pipeline.execute(this::retireExpired);
    pipeline.execute(this::scheduleDue);
    pipeline.execute(this::createMissing);
  }

  /**
   * A tenant without an active key gets one: a tenant created before tenants got their first key at
   * creation (2026-11-29), or one whose active key an operator deleted by hand. Until then only the
   * leader could serve its exchanges (the first one writes the key). At most {@value
   * #MISSING_PER_STEP} per step, so an upgrade's backlog does not make one huge batch.
   */
  private Void createMissing(WriteContext write) {
    List<String[]> missing =
        rows(
            write,
            "SELECT t.name, '' FROM tenants t WHERE NOT EXISTS (SELECT 1 FROM signing_keys k"
                + " WHERE k.tenant = t.name AND k.state = 'active') ORDER BY t.name LIMIT "
                + MISSING_PER_STEP);
    for (String[] row : missing) {
      keys.createActive(write, row[0]);
      LOG.info("tenant " + row[0] + " had no active signing key: it has one now");
    }
    return null;
  }

  private Void activateDue(WriteContext write) {
    List<String[]> due =
        rows(
            write,
            "SELECT tenant, kid FROM signing_keys WHERE state = 'passive' AND activated_at IS NULL"
                + " AND activate_after <= now() ORDER BY activate_after");
    // A token signed just before the switch lives token.ttl; verifiers may allow clock skew on top.
    double keepSeconds = (config.tokenTtl().toMillis() + config.clockSkew().toMillis()) / 1000.0;
    for (String[] row : due) {
      write.sql(
          "UPDATE signing_keys SET state = 'passive', retire_after = now()"
              + " + make_interval(secs => ?) WHERE tenant = ? AND state = 'active'",
          keepSeconds,
          row[0]);
      write.sql(
          "UPDATE signing_keys SET state = 'active', activated_at = now() WHERE kid = ?", row[1]);
      write.audit(SigningKeys.keyEntry("activate", row[0], row[1]));
      LOG.info("tenant " + row[0] + ": signing key " + row[1] + " is now active");
    }
    return null;
  }

  private Void retireExpired(WriteContext write) {
    String expired = "state = 'passive' AND activated_at IS NOT NULL AND retire_after <= now()";
    List<String[]> due = rows(write, "SELECT kid, tenant FROM signing_keys WHERE " + expired);
    int retired = due.size();
    due.forEach(row -> write.audit(SigningKeys.keyEntry("retire", row[1], row[0])));
    if (retired > 0) {
      write.sql(
          "UPDATE signing_keys SET state = 'retired', private_key = decode('', 'hex') WHERE "
              + expired);
      LOG.info(retired + " signing key(s) retired: every token they signed has expired");
    }
    return null;
  }

  private Void scheduleDue(WriteContext write) {
    double periodSeconds = config.keyRotationPeriod().toMillis() / 1000.0;
    double leadSeconds = config.jwksMaxAge().toMillis() / 1000.0;
    List<Object[]> due =
        write.query(
            c -> {
              try (PreparedStatement ps =
                  c.prepareStatement(
                      "SELECT a.tenant, a.activated_at FROM signing_keys a WHERE a.state = 'active'"
                          + " AND a.activated_at + make_interval(secs => ?)"
                          + " - make_interval(secs => ?) <= now()"
                          + " AND NOT EXISTS (SELECT 1 FROM signing_keys n WHERE n.tenant = a.tenant"
                          + " AND n.state = 'passive' AND n.activated_at IS NULL)")) {
                ps.setDouble(1, periodSeconds);
                ps.setDouble(2, leadSeconds);
                List<Object[]> out = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                  while (rs.next()) {
                    out.add(new Object[] {rs.getString(1), rs.getTimestamp(2)});
                  }
                }
                return out;
              }
            });
    for (Object[] row : due) {
      Instant periodEnd = ((Timestamp) row[1]).toInstant().plus(config.keyRotationPeriod());
      Instant earliest = Instant.now().plus(config.jwksMaxAge());
      keys.scheduleNext(write, (String) row[0], periodEnd.isAfter(earliest) ? periodEnd : earliest);
      LOG.info("tenant " + row[0] + ": next signing key published, active from " + periodEnd);
    }
    return null;
  }

  private static List<String[]> rows(WriteContext write, String sql) {
    return write.query(
        c -> {
          List<String[]> out = new ArrayList<>();
          try (PreparedStatement ps = c.prepareStatement(sql);
              ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
              out.add(new String[] {rs.getString(1), rs.getString(2)});
            }
          }
          return out;
        });
  }
}
