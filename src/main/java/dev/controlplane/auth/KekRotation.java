package dev.controlplane.auth;

import dev.controlplane.config.InvalidSettingException;
import dev.controlplane.write.WriteContext;
import dev.controlplane.write.WritePipeline;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;

/**
 * Replacing the key-encryption key. With the new key as {@code
 * SERVICE_CONTROLPLANE_KEY_ENCRYPTION_KEY} and the old one among {@code
 * SERVICE_CONTROLPLANE_KEY_ENCRYPTION_KEY_FALLBACKS}, every node reads keys stored under either,
 * and the leader stores each private key again under the new one (a leader duty, {@value #PER_STEP}
 * keys per write, each audited as {@code signing_key.reencrypt}), until none is left under the old
 * one ({@code controlplane_signing_keys_to_reencrypt} on the leader) and it can be dropped. Keys
 * stored before keys named their key-encryption key (format 1) are stored again too. At start, a
 * node checks that its keys open the stored ones, so a mistyped key stops the start instead of
 * every token exchange.
 */
@ApplicationScoped
public class KekRotation {

  private static final Logger LOG = Logger.getLogger(KekRotation.class.getName());
  static final int PER_STEP = 200;
  private static final int CHECKED_AT_START = 100;
  private static final String STALE =
      "state <> 'retired' AND substring(private_key from 1 for ?) <> ?";

  @Inject KeyVault vault;
  @Inject WritePipeline pipeline;
  @Inject MetricRegistry registry;

  @Resource(lookup = "jdbc/controlplane-direct")
  DataSource db;

  /** Not under the current key (or in the old format), as the last step counted; -1 before. */
  private volatile long stale = -1;

  /** Leader's pipeline only: the kid the next step continues after. */
  private String cursor = "";

  /** Keys no configured key opens, each reported once. */
  private final Set<String> unreadable = ConcurrentHashMap.newKeySet();

  public void register() {
    registry.gauge(
        Metadata.builder()
            .withName("controlplane.signing.keys.to.reencrypt")
            .withDescription(
                "Signing keys not yet stored under the current key-encryption key, as the leader"
                    + " last counted them (-1 on a node that has not counted: followers)")
            .build(),
        this,
        k -> k.stale);
  }

  /**
   * One step of the duty: up to {@value #PER_STEP} keys stored again under the current key. The
   * keys are counted outside the pipeline first, so that a cluster with nothing to do does not scan
   * the table under the write lock at every step.
   */
  public void reencryptStale() {
    long before = stale;
    int done = 0;
    long left;
    try (Connection c = db.getConnection()) {
      left = count(c);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot count the stored signing keys: " + e.getMessage(), e);
    }
    if (left > 0) {
      // The step's own updates reach the transaction after it returns: count them off instead.
      done = pipeline.execute(this::step);
      left -= done;
    }
    stale = left;
    if (done > 0) {
      LOG.info(
          "stored "
              + done
              + " signing key(s) again under SERVICE_CONTROLPLANE_KEY_ENCRYPTION_KEY; "
              + left
              + " left under another key-encryption key");
    }
    if (left == 0 && (before > 0 || done > 0)) {
      LOG.info(
          "every signing key is stored under SERVICE_CONTROLPLANE_KEY_ENCRYPTION_KEY now: the"
              + " keys of SERVICE_CONTROLPLANE_KEY_ENCRYPTION_KEY_FALLBACKS are no longer needed");
    }
  }

  private int step(WriteContext write) {
    byte[] prefix = vault.currentPrefix();
    List<Object[]> rows =
        write.query(
            c -> {
              try (PreparedStatement ps =
                  c.prepareStatement(
                      "SELECT tenant, kid, private_key FROM signing_keys WHERE "
                          + STALE
                          + " AND kid > ? ORDER BY kid LIMIT "
                          + PER_STEP)) {
                ps.setInt(1, prefix.length);
                ps.setBytes(2, prefix);
                ps.setString(3, cursor);
                List<Object[]> out = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                  while (rs.next()) {
                    out.add(new Object[] {rs.getString(1), rs.getString(2), rs.getBytes(3)});
                  }
                }
                return out;
              }
            });
    // Past the last page, the next step starts over: what could not be opened is met again.
    cursor = rows.size() < PER_STEP ? "" : (String) rows.get(rows.size() - 1)[1];
    int done = 0;
    for (Object[] row : rows) {
      String tenant = (String) row[0];
      String kid = (String) row[1];
      byte[] resealed;
      try {
        resealed = vault.resealed(tenant, kid, (byte[]) row[2]).orElse(null);
      } catch (IllegalStateException e) {
        if (unreadable.add(kid)) {
          LOG.severe(e.getMessage() + "; it stays as it is, and its tenant cannot sign with it");
        }
        continue;
      }
      if (resealed != null) {
        write.sql("UPDATE signing_keys SET private_key = ? WHERE kid = ?", resealed, kid);
        write.audit(SigningKeys.keyEntry("reencrypt", tenant, kid));
        done++;
      }
    }
    return done;
  }

  /** Keys stored under another key than the current one, or in the old format. */
  private long count(Connection c) throws SQLException {
    byte[] prefix = vault.currentPrefix();
    try (PreparedStatement ps =
        c.prepareStatement("SELECT count(*) FROM signing_keys WHERE " + STALE)) {
      ps.setInt(1, prefix.length);
      ps.setBytes(2, prefix);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /**
   * Refuses to start when the configured key-encryption keys open none of the stored keys checked
   * (the first {@value #CHECKED_AT_START} by kid): the key is mistyped, or another one stored them,
   * and this node could sign for no tenant. Some not opening is logged: those tenants cannot sign.
   */
  public void checkAtStart() {
    List<String> closed = new ArrayList<>();
    int checked = 0;
    try (Connection c = db.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT tenant, kid, private_key FROM signing_keys WHERE state <> 'retired'"
                    + " ORDER BY kid LIMIT "
                    + CHECKED_AT_START);
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        checked++;
        if (!vault.opens(rs.getString(1), rs.getString(2), rs.getBytes(3))) {
          closed.add(rs.getString(1) + "/" + rs.getString(2));
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the stored signing keys: " + e.getMessage(), e);
    }
    if (checked > 0 && closed.size() == checked) {
      throw new InvalidSettingException(
          "SERVICE_CONTROLPLANE_KEY_ENCRYPTION_KEY opens none of the "
              + checked
              + " stored signing keys checked, nor does any of"
              + " SERVICE_CONTROLPLANE_KEY_ENCRYPTION_KEY_FALLBACKS: it is not the key that stored"
              + " them (to replace that key, keep it among"
              + " SERVICE_CONTROLPLANE_KEY_ENCRYPTION_KEY_FALLBACKS until the leader has stored"
              + " every key again; docs/security.md)");
    }
    if (!closed.isEmpty()) {
      LOG.severe(
          closed.size()
              + " of "
              + checked
              + " stored signing keys checked open under no configured key-encryption key, and"
              + " their tenants cannot sign: "
              + String.join(", ", closed.subList(0, Math.min(5, closed.size())))
              + (closed.size() > 5 ? ", ..." : ""));
    }
  }
}
