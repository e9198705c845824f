package dev.controlplane.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.stream.Collectors;

/**
 * Validates an upstream OIDC token for a tenant (spec section 5, decisions.md "Tokens"). The
 * verifier is chosen by the key from the issuer's key set — its type, curve and declared algorithm
 * must fit the header's (allowed) algorithm — never by the header alone.
 *
 * <p>Everything up to the key lookup runs on the caller's thread; the result is a future because
 * the issuer's keys may have to be fetched first, and nobody waits for that on a request thread.
 */
public final class UpstreamValidator {

  /** At most this many keys are tried for a token without a kid. */
  private static final int MAX_CANDIDATES = 3;

  private final Set<JWSAlgorithm> allowed;
  private final UpstreamKeySets keySets;
  private final BiFunction<String, String, Optional<IssuerRecord>> issuers;
  private final Duration skew;
  private final Clock clock;
  private final boolean requireLowS;

  public UpstreamValidator(
      Set<String> allowedAlgorithms,
      UpstreamKeySets keySets,
      BiFunction<String, String, Optional<IssuerRecord>> issuers,
      Duration skew,
      Clock clock,
      boolean requireLowS) {
    this.allowed =
        allowedAlgorithms.stream().map(JWSAlgorithm::parse).collect(Collectors.toUnmodifiableSet());
    this.keySets = keySets;
    this.issuers = issuers;
    this.skew = skew;
    this.clock = clock;
    this.requireLowS = requireLowS;
  }

  /**
   * Validates {@code token} for {@code tenant}. Structural refusals are thrown at once; the rest
   * completes the future, exceptionally with a {@link TokenRejected}.
   */
  public CompletableFuture<UpstreamIdentity> validate(String tenant, String token) {
    SignedJWT jwt = JoseChecks.parse(token, allowed, requireLowS);
    JWTClaimsSet claims = claims(jwt);
    String iss = claims.getIssuer();
    IssuerRecord issuer =
        (iss == null ? Optional.<IssuerRecord>empty() : issuers.apply(tenant, iss))
            .orElseThrow(
                () -> new TokenRejected("the token's issuer is not trusted by this tenant"));
    if (issuer.issuer().indexOf('|') >= 0) {
      // A row from before the rule: its principal ids could collide with another issuer's.
      throw new TokenRejected("the issuer contains '|', which principal ids cannot separate");
    }
    return keysFor(tenant, issuer, jwt)
        .thenApply(
            keys -> {
              verifySignature(keys, jwt);
              checkTimes(claims);
              checkAudience(claims, issuer);
              return identity(claims, issuer);
            });
  }

  /** The issuer's keys, refreshed once when none fits a token that names a kid. */
  private CompletableFuture<Candidates> keysFor(String tenant, IssuerRecord issuer, SignedJWT jwt) {
    String kid = jwt.getHeader().getKeyID();
    JWSAlgorithm alg = jwt.getHeader().getAlgorithm();
    return keySets
        .keys(tenant, issuer)
        .thenCompose(
            set -> {
              Candidates found = candidates(set, kid, alg);
              if (!found.keys().isEmpty() || kid == null) {
                return CompletableFuture.completedFuture(found);
              }
              return keySets.refreshed(tenant, issuer).thenApply(s -> candidates(s, kid, alg));
            });
  }

  private static JWTClaimsSet claims(SignedJWT jwt) {
    try {
      return jwt.getJWTClaimsSet();
    } catch (ParseException e) {
      throw new TokenRejected("the token's claims are not a JSON object");
    }
  }

  /** The keys of {@code from} that fit a token, in the set's order. */
  private record Candidates(IssuerKeys from, List<JWK> keys) {}

  private static void verifySignature(Candidates candidates, SignedJWT jwt) {
    List<JWK> keys = candidates.keys();
    if (keys.isEmpty()) {
      throw new TokenRejected("no key of the issuer fits the token's kid and algorithm");
    }
    for (JWK key : keys.subList(0, Math.min(MAX_CANDIDATES, keys.size()))) {
      if (candidates.from().verifier(key).map(v -> verifies(jwt, v)).orElse(false)) {
        return;
      }
    }
    throw new TokenRejected("the signature does not verify");
  }

  private static Candidates candidates(IssuerKeys set, String kid, JWSAlgorithm alg) {
    return new Candidates(
        set,
        set.keys().stream()
            .filter(k -> kid == null || kid.equals(k.getKeyID()))
            .filter(k -> k.getKeyUse() == null || KeyUse.SIGNATURE.equals(k.getKeyUse()))
            .filter(k -> k.getAlgorithm() == null || k.getAlgorithm().equals(alg))
            .filter(k -> fits(k, alg))
            .toList());
  }

  /**
   * The key's type decides which algorithms it can verify: EC P-256 for ES256, RSA ≥ 2048 bits for
   * RS/PS.
   */
  private static boolean fits(JWK key, JWSAlgorithm alg) {
    if (JWSAlgorithm.ES256.equals(alg)) {
      return key instanceof ECKey ec && Curve.P_256.equals(ec.getCurve());
    }
    if (JWSAlgorithm.Family.RSA.contains(alg)) {
      return key instanceof RSAKey rsa && rsa.size() >= 2048;
    }
    return false;
  }

  private static boolean verifies(SignedJWT jwt, JWSVerifier verifier) {
    try {
      return jwt.verify(verifier);
    } catch (JOSEException | RuntimeException e) {
      return false;
    }
  }

  private void checkTimes(JWTClaimsSet claims) {
    Instant now = clock.instant();
    Date exp = claims.getExpirationTime();
    if (exp == null) {
      throw new TokenRejected("the token has no exp");
    }
    if (!exp.toInstant().plus(skew).isAfter(now)) {
      throw new TokenRejected("the token has expired");
    }
    Date iat = claims.getIssueTime();
    if (iat != null && iat.toInstant().isAfter(now.plus(skew))) {
      throw new TokenRejected("the token's iat is in the future");
    }
    Date nbf = claims.getNotBeforeTime();
    if (nbf != null && nbf.toInstant().isAfter(now.plus(skew))) {
      throw new TokenRejected("the token is not valid yet (nbf)");
    }
  }

  private static void checkAudience(JWTClaimsSet claims, IssuerRecord issuer) {
    List<String> aud = claims.getAudience();
    if (aud == null || aud.stream().noneMatch(issuer.audiences()::contains)) {
      throw new TokenRejected("the token's audience is not accepted");
    }
  }

  private static UpstreamIdentity identity(JWTClaimsSet claims, IssuerRecord issuer) {
    Object subject = claims.getClaim(issuer.subjectClaim());
    if (!(subject instanceof String sub) || sub.isBlank() || sub.length() > 1024) {
      throw new TokenRejected("the token has no usable " + issuer.subjectClaim() + " claim");
    }
    Set<String> groups =
        issuer.mapsGroups()
            ? Groups.from(claims.getClaim(issuer.groupsClaim()), issuer.groupsPrefix())
            : Set.of();
    return new UpstreamIdentity(PrincipalId.of(issuer.issuer(), sub), issuer.issuer(), sub, groups);
  }
}
