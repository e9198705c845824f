package dev.controlplane.auth;

import dev.controlplane.config.AuthConfig;
import dev.controlplane.write.WriteContext;
import dev.controlplane.write.WritePipeline;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;
import javax.sql.DataSource;

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

  // What each step looks for; the check before the steps asks for the same.
  private static final String ACTIVATION_DUE =
      "state = 'passive' AND activated_at IS NULL AND activate_after <= now()";
  private static final String RETIREMENT_DUE =
      "state = 'passive' AND activated_at IS NOT NULL AND retire_after <= now()";
  // Parameters: the rotation period and the publication lead, in seconds.
  private static final String NEXT_KEY_DUE =
      "a.state = 'active' AND a.activated_at + make_interval(secs => ?)"
          + " - make_interval(secs => ?) <= now()"
          + " AND NOT EXISTS (SELECT 1 FROM signing_keys n WHERE n.tenant = a.tenant"
          + " AND n.state = 'passive' AND n.activated_at IS NULL)";
  private static final String NO_ACTIVE_KEY =
      "NOT EXISTS (SELECT 1 FROM signing_keys k WHERE k.tenant = t.name AND k.state = 'active')";

  @Inject AuthConfig config;
  @Inject SigningKeys keys;
  @Inject WritePipeline pipeline;

  @Resource(lookup = "jdbc/controlplane-direct")
  DataSource db;

  public void advance() {
    // Each step is a fenced batch; most checks find nothing to do, and then one read is enough.
    if (!anythingDue()) {
      return;
    }
    pipeline.execute(this::activateDue);
    pipeline.execute(this::retireExpired);
    pipeline.execute(this::scheduleDue);
    pipeline.execute(this::createMissing);
  }

  /**
   * Whether any step would find something now: read outside the pipeline, so it may miss what
   * becomes due meanwhile, which the next check finds.
   */
  private boolean anythingDue() {
    try (Connection c = db.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT EXISTS (SELECT 1 FROM signing_keys WHERE "
                    + ACTIVATION_DUE
                    + ") OR EXISTS (SELECT 1 FROM signing_keys WHERE "
                    + RETIREMENT_DUE
                    + ") OR EXISTS (SELECT 1 FROM signing_keys a WHERE "
                    + NEXT_KEY_DUE
                    + ") OR EXISTS (SELECT 1 FROM tenants t WHERE "
                    + NO_ACTIVE_KEY
                    + ")")) {
      ps.setDouble(1, periodSeconds());
      ps.setDouble(2, leadSeconds());
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getBoolean(1);
      }
    } catch (SQLException e) {
      throw new IllegalStateException(
          "cannot read whether signing keys are due for rotation: " + e.getMessage(), e);
    }
  }

  private double periodSeconds() {
    return config.keyRotationPeriod().toMillis() / 1000.0;
  }

  /** A next key is published this long before it becomes active: the JWKS max-age. */
  private double leadSeconds() {
    return config.jwksMaxAge().toMillis() / 1000.0;
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
            "SELECT t.name, '' FROM tenants t WHERE "
                + NO_ACTIVE_KEY
                + " ORDER BY t.name LIMIT "
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
            "SELECT tenant, kid FROM signing_keys WHERE "
                + ACTIVATION_DUE
                + " ORDER BY activate_after");
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
    List<String[]> due =
        rows(write, "SELECT kid, tenant FROM signing_keys WHERE " + RETIREMENT_DUE);
    int retired = due.size();
    due.forEach(row -> write.audit(SigningKeys.keyEntry("retire", row[1], row[0])));
    if (retired > 0) {
      write.sql(
          "UPDATE signing_keys SET state = 'retired', private_key = decode('', 'hex') WHERE "
              + RETIREMENT_DUE);
      LOG.info(retired + " signing key(s) retired: every token they signed has expired");
    }
    return null;
  }

  private Void scheduleDue(WriteContext write) {
    List<Object[]> due =
        write.query(
            c -> {
              try (PreparedStatement ps =
                  c.prepareStatement(
                      "SELECT a.tenant, a.activated_at FROM signing_keys a WHERE "
                          + NEXT_KEY_DUE)) {
                ps.setDouble(1, periodSeconds());
                ps.setDouble(2, leadSeconds());
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
