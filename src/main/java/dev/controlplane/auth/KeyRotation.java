package dev.controlplane.auth;

import dev.controlplane.config.AuthConfig;
import dev.controlplane.tx.Tx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Instant;
import java.util.List;
import java.util.logging.Logger;

/**
 * The key lifecycle as a leader duty: activates next keys whose publication lead has passed (the
 * previous active key turns passive until every token it signed has expired), retires passive keys
 * after that, and publishes a next key when a key's rotation period is about to end.
 */
@ApplicationScoped
public class KeyRotation {

  private static final Logger LOG = Logger.getLogger(KeyRotation.class.getName());

  @PersistenceContext(unitName = "controlplane")
  EntityManager em;

  @Inject AuthConfig config;
  @Inject SigningKeys keys;

  @Tx
  public void advance() {
    activateDue();
    retireExpired();
    scheduleDue();
  }

  private void activateDue() {
    List<?> due =
        em.createNativeQuery(
                "SELECT tenant, kid FROM signing_keys WHERE state = 'passive' AND activated_at IS NULL"
                    + " AND activate_after <= now() ORDER BY activate_after FOR UPDATE")
            .getResultList();
    // A token signed just before the switch lives token.ttl; verifiers may allow clock skew on top.
    double keepSeconds = (config.tokenTtl().toMillis() + config.clockSkew().toMillis()) / 1000.0;
    for (Object o : due) {
      Object[] row = (Object[]) o;
      em.createNativeQuery(
              "UPDATE signing_keys SET state = 'passive', retire_after = now() + make_interval(secs => ?2)"
                  + " WHERE tenant = ?1 AND state = 'active'")
          .setParameter(1, row[0])
          .setParameter(2, keepSeconds)
          .executeUpdate();
      em.createNativeQuery(
              "UPDATE signing_keys SET state = 'active', activated_at = now() WHERE kid = ?1")
          .setParameter(1, row[1])
          .executeUpdate();
      LOG.info("tenant " + row[0] + ": signing key " + row[1] + " is now active");
    }
  }

  private void retireExpired() {
    int retired =
        em.createNativeQuery(
                "UPDATE signing_keys SET state = 'retired', private_key = decode('', 'hex')"
                    + " WHERE state = 'passive' AND activated_at IS NOT NULL AND retire_after <= now()")
            .executeUpdate();
    if (retired > 0) {
      LOG.info(retired + " signing key(s) retired: every token they signed has expired");
    }
  }

  private void scheduleDue() {
    double periodSeconds = config.keyRotationPeriod().toMillis() / 1000.0;
    double leadSeconds = config.jwksMaxAge().toMillis() / 1000.0;
    List<?> due =
        em.createNativeQuery(
                "SELECT a.tenant, a.activated_at FROM signing_keys a WHERE a.state = 'active'"
                    + " AND a.activated_at + make_interval(secs => ?1) - make_interval(secs => ?2) <= now()"
                    + " AND NOT EXISTS (SELECT 1 FROM signing_keys n WHERE n.tenant = a.tenant"
                    + " AND n.state = 'passive' AND n.activated_at IS NULL)")
            .setParameter(1, periodSeconds)
            .setParameter(2, leadSeconds)
            .getResultList();
    for (Object o : due) {
      Object[] row = (Object[]) o;
      Instant periodEnd = SigningKeys.instant(row[1]).plus(config.keyRotationPeriod());
      Instant earliest = Instant.now().plus(config.jwksMaxAge());
      keys.scheduleNext((String) row[0], periodEnd.isAfter(earliest) ? periodEnd : earliest);
      LOG.info("tenant " + row[0] + ": next signing key published, active from " + periodEnd);
    }
  }
}
