package dev.controlplane.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jose.jwk.gen.OctetKeyPairGenerator;
import com.nimbusds.jose.util.Base64URL;
import dev.controlplane.config.AuthConfig;
import dev.controlplane.tx.Tx;
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
import java.util.concurrent.ConcurrentHashMap;

/**
 * The tenants' Ed25519 keys in {@code signing_keys}. States by kid: {@code active} signs; {@code
 * passive} only verifies — either the next key, published before it signs, or a previous key kept
 * until every token it signed has expired; {@code retired} is neither published nor usable (its
 * private part is wiped). Private keys are stored AES-GCM encrypted.
 */
@ApplicationScoped
@Tx
public class SigningKeys {

  @jakarta.inject.Inject dev.controlplane.cluster.WriteGuard guard;

  private static final SecureRandom RANDOM = new SecureRandom();

  @PersistenceContext(unitName = "controlplane")
  EntityManager em;

  @Inject AuthConfig config;
  @Inject KeyVault vault;

  /** Decrypted active keys by kid: decrypting once per key, not once per token. */
  private final Map<String, OctetKeyPair> privateKeys = new ConcurrentHashMap<>();

  /** Creates the tenant's first key, active at once (nothing can have cached an empty JWKS yet). */
  @Tx(Tx.Type.MANDATORY)
  public SigningKey createFirst(String tenant) {
    return insert(tenant, "active", Instant.now(), null);
  }

  /**
   * The key that signs now, created when the tenant has none (a tenant made before auth was set
   * up).
   */
  public OctetKeyPair activeKey(String tenant) {
    List<?> rows =
        em.createNativeQuery(
                "SELECT kid, private_key FROM signing_keys WHERE tenant = ?1 AND state = 'active'")
            .setParameter(1, tenant)
            .getResultList();
    if (rows.isEmpty()) {
      em.createNativeQuery("SELECT 1 FROM tenants WHERE name = ?1 FOR UPDATE")
          .setParameter(1, tenant)
          .getResultList();
      return activeKeyAfterCreate(tenant);
    }
    Object[] row = (Object[]) rows.get(0);
    String kid = (String) row[0];
    return privateKeys.computeIfAbsent(kid, k -> vault.open(tenant, k, (byte[]) row[1]));
  }

  private OctetKeyPair activeKeyAfterCreate(String tenant) {
    List<?> again =
        em.createNativeQuery("SELECT kid FROM signing_keys WHERE tenant = ?1 AND state = 'active'")
            .setParameter(1, tenant)
            .getResultList();
    if (again.isEmpty()) {
      insert(tenant, "active", Instant.now(), null);
    }
    return activeKey(tenant);
  }

  /**
   * Every key a verifier may need now: the active one, the next one and unexpired previous ones.
   */
  public List<SigningKey> published(String tenant) {
    return select("tenant = ?1 AND state <> 'retired'", tenant);
  }

  public List<SigningKey> all(String tenant) {
    return select("tenant = ?1", tenant);
  }

  /** The public key with this kid if it is still published for the tenant. */
  public Optional<OctetKeyPair> verificationKey(String tenant, String kid) {
    return published(tenant).stream()
        .filter(k -> k.kid().equals(kid))
        .findFirst()
        .map(
            k ->
                new OctetKeyPair.Builder(Curve.Ed25519, new Base64URL(k.publicX()))
                    .keyID(k.kid())
                    .build());
  }

  /**
   * Starts a rotation: publishes a next key that starts signing after the JWKS max-age, so every
   * verifier that caches the JWKS knows it first. Returns the existing next key if one is pending.
   */
  public SigningKey rotate(String tenant) {
    guard.requireLeader();
    if (em.createNativeQuery("SELECT 1 FROM tenants WHERE name = ?1 FOR UPDATE")
        .setParameter(1, tenant)
        .getResultList()
        .isEmpty()) {
      throw dev.controlplane.error.ControlPlaneException.notFound(
          "tenant " + tenant + " does not exist");
    }
    Optional<SigningKey> pending =
        published(tenant).stream().filter(k -> "next".equals(k.state())).findFirst();
    return pending.orElseGet(
        () -> insert(tenant, "passive", null, Instant.now().plus(config.jwksMaxAge())));
  }

  /** Publishes a next key for a tenant that has none pending (the automatic rotation). */
  @Tx(Tx.Type.MANDATORY)
  void scheduleNext(String tenant, Instant activateAfter) {
    insert(tenant, "passive", null, activateAfter);
  }

  private SigningKey insert(
      String tenant, String state, Instant activatedAt, Instant activateAfter) {
    String kid = newKid();
    OctetKeyPair pair;
    try {
      pair = new OctetKeyPairGenerator(Curve.Ed25519).keyID(kid).generate();
    } catch (JOSEException e) {
      throw new IllegalStateException("Ed25519 key generation is unavailable", e);
    }
    boolean next = activatedAt == null;
    em.createNativeQuery(
            "INSERT INTO signing_keys (tenant, kid, state, public_x, private_key, activated_at, activate_after)"
                + (next
                    ? " VALUES (?1, ?2, ?3, ?4, ?5, NULL, ?6)"
                    : " VALUES (?1, ?2, ?3, ?4, ?5, ?6, NULL)"))
        .setParameter(1, tenant)
        .setParameter(2, kid)
        .setParameter(3, state)
        .setParameter(4, pair.getX().toString())
        .setParameter(5, vault.seal(tenant, kid, pair))
        .setParameter(6, Timestamp.from(next ? activateAfter : activatedAt))
        .executeUpdate();
    return new SigningKey(
        tenant,
        kid,
        activatedAt == null ? "next" : state,
        pair.getX().toString(),
        activateAfter,
        null);
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
