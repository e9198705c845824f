package dev.controlplane.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jose.jwk.gen.OctetKeyPairGenerator;
import com.nimbusds.jose.util.Base64URL;
import dev.controlplane.audit.AuditEntry;
import dev.controlplane.config.AuthConfig;
import dev.controlplane.metadata.TenantSetup;
import dev.controlplane.tx.Tx;
import dev.controlplane.write.WriteContext;
import dev.controlplane.write.WritePipeline;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.security.SecureRandom;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The tenants' Ed25519 keys in {@code signing_keys}. States by kid: {@code active} signs; {@code
 * passive} only verifies — either the next key, published before it signs, or a previous key kept
 * until every token it signed has expired; {@code retired} is neither published nor usable (its
 * private part is wiped). Private keys are stored AES-GCM encrypted.
 */
@ApplicationScoped
public class SigningKeys implements TenantSetup {

  private static final SecureRandom RANDOM = new SecureRandom();

  @PersistenceContext(unitName = "controlplane")
  EntityManager em;

  @Inject AuthConfig config;
  @Inject KeyVault vault;
  @Inject WritePipeline pipeline;

  /**
   * Creates the tenant's first key in the operation's batch, active at once (nothing can have
   * cached an empty JWKS yet).
   */
  public SigningKey createFirst(WriteContext write, String tenant) {
    return insert(write, tenant, "active", Instant.now(), null);
  }

  /**
   * The key that signs now, created when the tenant has none (a tenant made before auth was set
   * up). Decrypted at each call: the one decrypted copy a node keeps is the signer {@code
   * ServiceTokens} caches per tenant, dropped when the tenant's keys change or the tenant goes.
   */
  @Tx
  public OctetKeyPair activeKey(String tenant) {
    List<?> rows =
        em.createNativeQuery(
                "SELECT kid, private_key FROM signing_keys WHERE tenant = ?1 AND state = 'active'")
            .setParameter(1, tenant)
            .getResultList();
    if (rows.isEmpty()) {
      createMissingActiveKey(tenant);
      return activeKey(tenant);
    }
    Object[] row = (Object[]) rows.get(0);
    String kid = (String) row[0];
    return vault.open(tenant, kid, (byte[]) row[1]);
  }

  /** A tenant created through the API: its first key, in the batch that creates it. */
  @Override
  public void created(WriteContext write, String tenant) {
    createActive(write, tenant);
  }

  /**
   * A new active key for a tenant that has none, audited as its creation beside the operation's own
   * record (the tenant's creation, when it is one).
   */
  void createActive(WriteContext write, String tenant) {
    SigningKey created = createFirst(write, tenant);
    write.auditBeside(keyEntry("create", tenant, created.kid()));
  }

  /**
   * A tenant created before tenants got a key at creation (2026-11-29) gets its first key at its
   * first exchange: a write, so the leader's.
   */
  private void createMissingActiveKey(String tenant) {
    pipeline.execute(
        write -> {
          if (write.image().tenant(tenant).isEmpty()) {
            throw dev.controlplane.error.ControlPlaneException.notFound(
                "tenant " + tenant + " does not exist");
          }
          if (!hasKey(write, tenant, "state = 'active'")) {
            createActive(write, tenant);
          }
          return null;
        });
  }

  private static boolean hasKey(WriteContext write, String tenant, String condition) {
    return write.query(
        c -> {
          try (var ps =
              c.prepareStatement("SELECT 1 FROM signing_keys WHERE tenant = ? AND " + condition)) {
            ps.setString(1, tenant);
            try (var rs = ps.executeQuery()) {
              return rs.next();
            }
          }
        });
  }

  /**
   * Every key a verifier may need now: the active one, the next one and unexpired previous ones.
   */
  @Tx
  public List<SigningKey> published(String tenant) {
    return select("tenant = ?1 AND state <> 'retired'", tenant);
  }

  @Tx
  public List<SigningKey> all(String tenant) {
    return select("tenant = ?1", tenant);
  }

  /** The public keys still published for the tenant, by kid. */
  @Tx
  public Map<String, OctetKeyPair> verificationKeys(String tenant) {
    Map<String, OctetKeyPair> out = new java.util.HashMap<>();
    for (SigningKey k : published(tenant)) {
      out.put(
          k.kid(),
          new OctetKeyPair.Builder(Curve.Ed25519, new Base64URL(k.publicX()))
              .keyID(k.kid())
              .build());
    }
    return Map.copyOf(out);
  }

  /**
   * Starts a rotation: publishes a next key that starts signing after the JWKS max-age, so every
   * verifier that caches the JWKS knows it first. Returns the existing next key if one is pending.
   */
  public SigningKey rotate(String tenant) {
    return pipeline.execute(
        write -> {
          if (write.image().tenant(tenant).isEmpty()) {
            throw dev.controlplane.error.ControlPlaneException.notFound(
                "tenant " + tenant + " does not exist");
          }
          Optional<SigningKey> pending =
              write.query(c -> pendingNext(c, tenant)).stream().findFirst();
          if (pending.isPresent()) {
            return pending.get();
          }
          Instant activateAfter = Instant.now().plus(config.jwksMaxAge());
          SigningKey next = insert(write, tenant, "passive", null, activateAfter);
          write.audit(
              keyEntry("rotate", tenant, next.kid())
                  .with("activate_after", activateAfter.toString()));
          return next;
        });
  }

  private static List<SigningKey> pendingNext(java.sql.Connection c, String tenant)
      throws java.sql.SQLException {
    List<SigningKey> out = new java.util.ArrayList<>();
    try (var ps =
        c.prepareStatement(
            "SELECT tenant, kid, state, public_x, activated_at, activate_after, retire_after"
                + " FROM signing_keys WHERE tenant = ? AND state = 'passive'"
                + " AND activated_at IS NULL ORDER BY created_at, kid")) {
      ps.setString(1, tenant);
      try (var rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(
              toKey(
                  new Object[] {
                    rs.getString(1),
                    rs.getString(2),
                    rs.getString(3),
                    rs.getString(4),
                    rs.getTimestamp(5),
                    rs.getTimestamp(6),
                    rs.getTimestamp(7)
                  }));
        }
      }
    }
    return out;
  }

  /** Publishes a next key for a tenant that has none pending (the automatic rotation). */
  void scheduleNext(WriteContext write, String tenant, Instant activateAfter) {
    SigningKey next = insert(write, tenant, "passive", null, activateAfter);
    write.audit(
        keyEntry("rotate", tenant, next.kid())
            .with("activate_after", activateAfter.toString())
            .with("scheduled", true));
  }

  /** The audit entry of a step of a tenant's key lifecycle (public parts only: the kid). */
  static AuditEntry keyEntry(String verb, String tenant, String kid) {
    return AuditEntry.of("signing_key", "signing_key." + verb, verb, tenant)
        .on("signing_key:" + kid)
        .with("kid", kid);
  }

  private SigningKey insert(
      WriteContext write, String tenant, String state, Instant activatedAt, Instant activateAfter) {
    String kid = newKid();
    OctetKeyPair pair;
    try {
      pair = new OctetKeyPairGenerator(Curve.Ed25519).keyID(kid).generate();
    } catch (JOSEException e) {
      throw new IllegalStateException("Ed25519 key generation is unavailable", e);
    }
    boolean next = activatedAt == null;
    write.sql(
        "INSERT INTO signing_keys (tenant, kid, state, public_x, private_key, activated_at,"
            + " activate_after)"
            + (next ? " VALUES (?, ?, ?, ?, ?, NULL, ?)" : " VALUES (?, ?, ?, ?, ?, ?, NULL)"),
        tenant,
        kid,
        state,
        pair.getX().toString(),
        vault.seal(tenant, kid, pair),
        next ? activateAfter : activatedAt);
    return new SigningKey(
        tenant, kid, next ? "next" : state, pair.getX().toString(), activateAfter, null);
  }

  private List<SigningKey> select(String where, String tenant) {
    List<?> rows =
        em.createNativeQuery(
                "SELECT tenant, kid, state, public_x, activated_at, activate_after, retire_after FROM signing_keys WHERE "
                    + where
                    + " ORDER BY created_at, kid")
            .setParameter(1, tenant)
            .getResultList();
    return rows.stream().map(r -> (Object[]) r).map(SigningKeys::toKey).toList();
  }

  private static SigningKey toKey(Object[] r) {
    String state = (String) r[2];
    if ("passive".equals(state) && r[4] == null) {
      state = "next";
    }
    return new SigningKey(
        (String) r[0], (String) r[1], state, (String) r[3], instant(r[5]), instant(r[6]));
  }

  static Instant instant(Object value) {
    if (value == null) {
      return null;
    }
    if (value instanceof Timestamp t) {
      return t.toInstant();
    }
    if (value instanceof java.time.OffsetDateTime o) {
      return o.toInstant();
    }
    return (Instant) value;
  }

  private static String newKid() {
    byte[] bytes = new byte[12];
    RANDOM.nextBytes(bytes);
    return Base64URL.encode(bytes).toString();
  }
}
