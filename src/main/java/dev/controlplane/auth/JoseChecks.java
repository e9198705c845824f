package dev.controlplane.auth;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jwt.SignedJWT;
import java.text.ParseException;
import java.util.Set;

/**
 * The structural checks every JWT passes before any key is looked up: size, compact JWS
 * serialization only (no JWE, no JSON serialization, no nested token), an allowed algorithm, no
 * {@code crit}, and no header that names a key ({@code jwk}, {@code jku}, {@code x5u}, {@code
 * x5c}): keys come only from our configuration, so such a header is refused rather than ignored.
 */
final class JoseChecks {

  /** Far above any real token; bounds the work an attacker can ask for. */
  static final int MAX_TOKEN_CHARS = 16 * 1024;

  private static final Set<String> ALLOWED_TYPES =
      Set.of("jwt", "at+jwt", "application/jwt", "application/at+jwt");

  private JoseChecks() {}

  static SignedJWT parse(String token, Set<JWSAlgorithm> allowed) {
    if (token == null || token.isBlank()) {
      throw new TokenRejected("a bearer token is required");
    }
    if (token.length() > MAX_TOKEN_CHARS) {
      throw new TokenRejected("the token is larger than " + MAX_TOKEN_CHARS + " characters");
    }
    if (token.chars().filter(c -> c == '.').count() != 2) {
      throw new TokenRejected(
          "the token is not a compact JWS (JWE and JSON serialization are not accepted)");
    }
    SignedJWT jwt;
    try {
      jwt = SignedJWT.parse(token);
    } catch (ParseException | RuntimeException e) {
      throw new TokenRejected("the token is not a well-formed signed JWT");
    }
    checkHeader(jwt.getHeader(), allowed);
    return jwt;
  }

  private static void checkHeader(JWSHeader header, Set<JWSAlgorithm> allowed) {
    if (!allowed.contains(header.getAlgorithm())) {
      throw new TokenRejected("the token's algorithm is not accepted");
    }
    if (header.getCriticalParams() != null) {
      throw new TokenRejected("tokens with a crit header are not accepted");
    }
    if (header.getJWK() != null
        || header.getJWKURL() != null
        || header.getX509CertURL() != null
        || header.getX509CertChain() != null) {
      throw new TokenRejected(
          "tokens that name their own key (jwk, jku, x5u, x5c) are not accepted");
    }
    if (header.getContentType() != null) {
      throw new TokenRejected("nested tokens (cty) are not accepted");
    }
    if (header.getType() != null
        && !ALLOWED_TYPES.contains(header.getType().getType().toLowerCase(java.util.Locale.ROOT))) {
      throw new TokenRejected("the token's typ is not a JWT type");
    }
    String kid = header.getKeyID();
    if (kid != null && (kid.length() > 256 || !kid.chars().allMatch(c -> c >= 0x21 && c < 0x7f))) {
      throw new TokenRejected("the token's kid is not acceptable");
    }
  }
}
