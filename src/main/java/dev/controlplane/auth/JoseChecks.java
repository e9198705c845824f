package dev.controlplane.auth;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jwt.SignedJWT;
import java.math.BigInteger;
import java.text.ParseException;
import java.util.Arrays;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The structural checks every JWT passes before any key is looked up: size, compact JWS
 * serialization only (no JWE, no JSON serialization, no nested token), each part in strict
 * base64url (RFC 7515: no padding, no {@code +/}, no white space, no stray bits — nimbus would
 * decode all of these, so one token could be written many ways), an allowed algorithm, no {@code
 * crit}, no header that names a key ({@code jwk}, {@code jku}, {@code x5u}, {@code x5c}): keys come
 * only from our configuration, so such a header is refused rather than ignored. An ES256 signature
 * must be 64 bytes, and with {@code requireLowS} its S at most half the group order.
 */
final class JoseChecks {

  /** Far above any real token; bounds the work an attacker can ask for. */
  static final int MAX_TOKEN_CHARS = 16 * 1024;

  private static final Set<String> ALLOWED_TYPES =
      Set.of("jwt", "at+jwt", "application/jwt", "application/at+jwt");

  private static final Pattern BASE64URL = Pattern.compile("[A-Za-z0-9_-]*");
  private static final String ALPHABET =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

  /** Order of the P-256 group; an ECDSA signature (r, s) verifies exactly when (r, n - s) does. */
  private static final BigInteger P256_ORDER =
      new BigInteger("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551", 16);

  private static final BigInteger P256_HALF_ORDER = P256_ORDER.shiftRight(1);

  private JoseChecks() {}

  static SignedJWT parse(String token, Set<JWSAlgorithm> allowed) {
    return parse(token, allowed, false);
  }

  static SignedJWT parse(String token, Set<JWSAlgorithm> allowed, boolean requireLowS) {
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
    for (String part : token.split("\\.", -1)) {
      if (!strictBase64Url(part)) {
        throw new TokenRejected("the token is not strict base64url (RFC 7515)");
      }
    }
    SignedJWT jwt;
    try {
      jwt = SignedJWT.parse(token);
    } catch (ParseException | RuntimeException e) {
      throw new TokenRejected("the token is not a well-formed signed JWT");
    }
    checkHeader(jwt.getHeader(), allowed);
    if (JWSAlgorithm.ES256.equals(jwt.getHeader().getAlgorithm())) {
      checkEs256Signature(jwt.getSignature().decode(), requireLowS);
    }
    return jwt;
  }

  /**
   * Unpadded base64url whose length can encode whole bytes and whose last character carries no bits
   * beyond them: the one encoding of its bytes.
   */
  static boolean strictBase64Url(String part) {
    if (!BASE64URL.matcher(part).matches() || part.length() % 4 == 1) {
      return false;
    }
    if (part.isEmpty()) {
      return true;
    }
    int last = ALPHABET.indexOf(part.charAt(part.length() - 1));
    return switch (part.length() % 4) {
      case 2 -> (last & 0x0f) == 0;
      case 3 -> (last & 0x03) == 0;
      default -> true;
    };
  }

  private static void checkEs256Signature(byte[] signature, boolean requireLowS) {
    if (signature.length != 64) {
      throw new TokenRejected("an ES256 signature must be 64 bytes (R || S)");
    }
    BigInteger s = new BigInteger(1, Arrays.copyOfRange(signature, 32, 64));
    if (requireLowS && s.compareTo(P256_HALF_ORDER) > 0) {
      throw new TokenRejected("the ES256 signature has a high S value (a malleable encoding)");
    }
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
