package dev.controlplane.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.Ed25519Verifier;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.controlplane.cache.TenantCache;
import dev.controlplane.cache.TenantChanges;
import dev.controlplane.config.AuthConfig;
import dev.controlplane.metadata.model.Names;
import dev.controlplane.rbac.Permission;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Our own service tokens: EdDSA (Ed25519) only, header {@code typ: JWT} and {@code kid}, the claims
 * of spec section 5 ({@code iss, aud, sub, tid, exp, iat, perms}) and a {@code jti} (a random UUID)
 * that names the token in the audit log.
 */
@ApplicationScoped
public class ServiceTokens {

  public static final String ISSUER = "service-auth";
  public static final String AUDIENCE = "service-broker";
  private static final Duration SKEW = Duration.ofSeconds(5);

  @Inject SigningKeys keys;
  @Inject AuthConfig config;
  @Inject TenantChanges changes;

  /**
   * Per tenant, the signer of the active key and the keys that verify, read on every exchange and
   * every verification: in memory, dropped when the tenant's keys change (a rotation step is a
   * write). The signer, not only the key: building one derives the public key from the private one,
   * which cost more than the signature itself (5.6 % of a loaded node's CPU in a JDK 25 profile).
   */
  private TenantCache<ActiveSigner> signing;

  private TenantCache<Map<String, OctetKeyPair>> verifying;

  private final VerifiedTokens verified = new VerifiedTokens();

  @PostConstruct
  void init() {
    signing = changes.cache(tenant -> ActiveSigner.of(keys.activeKey(tenant)));
    // Reached with the tenant of a token not verified yet: a made-up tenant has no keys.
    verifying = changes.cache(keys::verificationKeys, found -> !found.isEmpty());
  }

  /** The active key's id and its signer (thread-safe: one per tenant serves every exchange). */
  private record ActiveSigner(String kid, Ed25519JwsSigner signer) {
    static ActiveSigner of(OctetKeyPair key) {
      try {
        return new ActiveSigner(key.getKeyID(), new Ed25519JwsSigner(key));
      } catch (JOSEException e) {
        throw new IllegalStateException("the active signing key is not an Ed25519 private key", e);
      }
    }
  }

  /** A verified service token: who, for which tenant, holding what. */
  public record Verified(String principal, String tenant, List<Permission> perms) {}

  /** A signed token, its lifetime, its {@code jti} and its expiry. */
  public record Issued(String token, long expiresIn, String jti, Instant expiresAt) {}

  public Issued issue(String tenant, String principal, List<Permission> perms) {
    ActiveSigner active = signing.get(tenant);
    Instant now = Instant.now();
    Duration ttl = config.tokenTtl();
    String jti = UUID.randomUUID().toString();
    JWTClaimsSet claims =
        new JWTClaimsSet.Builder()
            .jwtID(jti)
            .issuer(ISSUER)
            .audience(AUDIENCE)
            .subject(principal)
            .claim("tid", tenant)
            .issueTime(Date.from(now))
            .expirationTime(Date.from(now.plus(ttl)))
            .claim("perms", perms.stream().map(Permission::toString).toList())
            .build();
    JWSHeader header =
        new JWSHeader.Builder(JWSAlgorithm.EdDSA)
            .type(JOSEObjectType.JWT)
            .keyID(active.kid())
            .build();
    SignedJWT jwt = new SignedJWT(header, claims);
    try {
      jwt.sign(active.signer());
    } catch (JOSEException e) {
      throw new IllegalStateException("Ed25519 signing failed", e);
    }
    return new Issued(
        jwt.serialize(), ttl.toSeconds(), jti, now.plus(ttl).truncatedTo(ChronoUnit.SECONDS));
  }

  /**
   * Verifies a service token for {@code tenant}: signature by a published key of that tenant,
   * claims, expiry. A token seen before skips the signature and claims ({@link VerifiedTokens}),
   * never the expiry or the check that its key is still published.
   */
  public Verified verify(String token, String tenant) {
    Instant now = Instant.now();
    VerifiedTokens.Entry known = verified.get(token);
    if (known != null && stillGood(known, tenant, now, verifying.get(tenant))) {
      return known.verified();
    }
    SignedJWT jwt = JoseChecks.parse(token, Set.of(JWSAlgorithm.EdDSA));
    String kid = jwt.getHeader().getKeyID();
    if (kid == null) {
      throw new TokenRejected("the service token has no kid");
    }
    OctetKeyPair key = verifying.get(tenant).get(kid);
    if (key == null) {
      throw new TokenRejected("unknown signing key");
    }
    try {
      if (!jwt.verify(new Ed25519Verifier(key))) {
        throw new TokenRejected("the signature does not verify");
      }
      JWTClaimsSet claims = jwt.getJWTClaimsSet();
      Verified result = checkClaims(claims, tenant, now);
      verified.put(
          token,
          new VerifiedTokens.Entry(result, kid, claims.getExpirationTime().toInstant()),
          now);
      return result;
    } catch (JOSEException | ParseException e) {
      throw new TokenRejected("the service token cannot be verified");
    }
  }

  /**
   * What {@link #verify} answers for a token it verified before, when that answer needs nothing
   * from the database: empty when the token is new to this node, its tenant's keys are not in
   * memory, or it no longer passes (then {@link #verify} says why).
   */
  public Optional<Verified> remembered(String token, String tenant) {
    VerifiedTokens.Entry known = verified.get(token);
    Map<String, OctetKeyPair> keys = verifying.peek(tenant);
    return known != null && keys != null && stillGood(known, tenant, Instant.now(), keys)
        ? Optional.of(known.verified())
        : Optional.empty();
  }

  private static boolean stillGood(
      VerifiedTokens.Entry known, String tenant, Instant now, Map<String, OctetKeyPair> keys) {
    return known.verified().tenant().equals(tenant)
        && unexpired(known.expiresAt(), now)
        && keys.containsKey(known.kid());
  }

  /**
   * Verifies a service token of whichever tenant it names: the {@code tid} claim only chooses the
   * tenant whose keys must have signed it, and {@link #verify} checks everything else.
   */
  public Verified verifyForItsTenant(String token) {
    VerifiedTokens.Entry known = verified.get(token);
    if (known != null) {
      return verify(token, known.verified().tenant());
    }
    String tenant;
    try {
      tenant =
          JoseChecks.parse(token, Set.of(JWSAlgorithm.EdDSA))
              .getJWTClaimsSet()
              .getStringClaim("tid");
    } catch (ParseException e) {
      throw new TokenRejected("the service token cannot be parsed");
    }
    if (tenant == null || !Names.isValid(tenant)) {
      throw new TokenRejected("the token names no tenant");
    }
    return verify(token, tenant);
  }

  private static Verified checkClaims(JWTClaimsSet claims, String tenant, Instant now)
      throws ParseException {
    if (!ISSUER.equals(claims.getIssuer())
        || claims.getAudience() == null
        || !claims.getAudience().contains(AUDIENCE)) {
      throw new TokenRejected("not a service token of this control plane");
    }
    if (!tenant.equals(claims.getStringClaim("tid"))) {
      throw new TokenRejected("the token belongs to another tenant");
    }
    Date exp = claims.getExpirationTime();
    if (exp == null || !unexpired(exp.toInstant(), now)) {
      throw new TokenRejected("the token has expired");
    }
    List<String> raw = claims.getStringListClaim("perms");
    List<Permission> perms = new ArrayList<>();
    if (raw != null) {
      raw.forEach(p -> Permission.parse(p).ifPresent(perms::add));
    }
    return new Verified(claims.getSubject(), tenant, List.copyOf(perms));
  }

  private static boolean unexpired(Instant expiresAt, Instant now) {
    return expiresAt.plus(SKEW).isAfter(now);
  }
}
