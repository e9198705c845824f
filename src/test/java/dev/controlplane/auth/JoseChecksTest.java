package dev.controlplane.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSObject;
import com.nimbusds.jose.Payload;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.SignedJWT;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A compact JWS has one encoding (RFC 7515 base64url without padding). Nimbus decodes lenient
 * variants to the same bytes, so they are refused before any key is looked up; so is the high-S
 * twin of an ES256 signature when low S is required.
 */
class JoseChecksTest {

  private static final BigInteger N =
      new BigInteger("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551", 16);
  private static final Set<JWSAlgorithm> ES256 = Set.of(JWSAlgorithm.ES256);
  private static ECKey key;

  @BeforeAll
  static void key() throws Exception {
    key = new ECKeyGenerator(Curve.P_256).keyID("k").generate();
  }

  private static String signed(String payload) throws Exception {
    JWSObject jws =
        new JWSObject(
            new JWSHeader.Builder(JWSAlgorithm.ES256).keyID("k").build(), new Payload(payload));
    jws.sign(new ECDSASigner(key));
    return jws.serialize();
  }

  private static String[] parts(String token) {
    return token.split("\\.");
  }

  /** A token whose signature has the given S half (low or high), found by signing until it does. */
  private static String withS(boolean high) throws Exception {
    for (int i = 0; ; i++) {
      String token = signed("{\"n\":" + i + "}");
      BigInteger s =
          new BigInteger(1, Arrays.copyOfRange(Base64URL.from(parts(token)[2]).decode(), 32, 64));
      if ((s.compareTo(N.shiftRight(1)) > 0) == high) {
        return token;
      }
    }
  }

  /** The other signature that verifies: (r, n - s). */
  private static String twin(String token) {
    String[] p = parts(token);
    byte[] sig = Base64URL.from(p[2]).decode();
    BigInteger s = new BigInteger(1, Arrays.copyOfRange(sig, 32, 64));
    byte[] other = N.subtract(s).toByteArray();
    byte[] out = Arrays.copyOf(sig, 64);
    Arrays.fill(out, 32, 64, (byte) 0);
    int len = Math.min(32, other.length);
    System.arraycopy(other, other.length - len, out, 64 - len, len);
    return p[0] + "." + p[1] + "." + Base64URL.encode(out);
  }

  @Test
  void aCanonicalTokenPasses() throws Exception {
    assertThat(JoseChecks.parse(signed("{}"), ES256, false)).isNotNull();
    assertThat(JoseChecks.parse(withS(false), ES256, true)).isNotNull();
  }

  @Test
  void paddingStandardBase64WhiteSpaceAndStrayBitsAreRefused() throws Exception {
    String token = signed("{\"sub\":\"a\"}");
    String[] p = parts(token);
    String padded = p[0] + "." + p[1] + "." + p[2] + "==";
    String standard = p[0] + "." + p[1] + "." + p[2].replace('-', '+').replace('_', '/');
    String spaced = p[0] + "." + p[1] + "." + p[2].substring(0, 10) + " " + p[2].substring(10);
    // 64 bytes encode to 86 characters; the last one carries 4 unused bits.
    char last = p[2].charAt(p[2].length() - 1);
    String stray =
        p[0] + "." + p[1] + "." + p[2].substring(0, p[2].length() - 1) + (char) (last + 1);
    for (String bad : new String[] {padded, spaced, stray}) {
      assertThatThrownBy(() -> JoseChecks.parse(bad, ES256, false))
          .as(bad)
          .isInstanceOf(TokenRejected.class)
          .hasMessageContaining("base64url");
    }
    if (!standard.equals(token)) {
      assertThatThrownBy(() -> JoseChecks.parse(standard, ES256, false))
          .isInstanceOf(TokenRejected.class);
    }
    assertThat(SignedJWT.parse(padded).verify(new ECDSAVerifier(key)))
        .as("nimbus alone accepts the padded form")
        .isTrue();
  }

  @Test
  void theHighSTwinVerifiesButIsRefusedWhenLowSIsRequired() throws Exception {
    String low = withS(false);
    String high = twin(low);
    assertThat(SignedJWT.parse(high).verify(new ECDSAVerifier(key))).isTrue();
    assertThat(JoseChecks.parse(low, ES256, true)).isNotNull();
    assertThatThrownBy(() -> JoseChecks.parse(high, ES256, true))
        .isInstanceOf(TokenRejected.class)
        .hasMessageContaining("high S");
    assertThat(JoseChecks.parse(high, ES256, false)).as("allowed by default").isNotNull();
    assertThat(JoseChecks.parse(withS(true), ES256, false)).isNotNull();
  }

  @Test
  void anEs256SignatureOfAnotherLengthIsRefused() throws Exception {
    String[] p = parts(signed("{}"));
    String shortSig = p[0] + "." + p[1] + "." + Base64URL.encode(new byte[63]);
    assertThatThrownBy(() -> JoseChecks.parse(shortSig, ES256, false))
        .isInstanceOf(TokenRejected.class);
  }

  @Test
  void strictBase64UrlAcceptsExactlyTheCanonicalForms() {
    assertThat(JoseChecks.strictBase64Url("")).isTrue();
    assertThat(JoseChecks.strictBase64Url("AA")).isTrue();
    assertThat(JoseChecks.strictBase64Url("AB")).isFalse();
    assertThat(JoseChecks.strictBase64Url("AAA")).isTrue();
    assertThat(JoseChecks.strictBase64Url("AAB")).isFalse();
    assertThat(JoseChecks.strictBase64Url("A")).isFalse();
    assertThat(JoseChecks.strictBase64Url("AA==")).isFalse();
    assertThat(JoseChecks.strictBase64Url("a+b/")).isFalse();
    assertThat(JoseChecks.strictBase64Url("a-b_")).isTrue();
  }
}
