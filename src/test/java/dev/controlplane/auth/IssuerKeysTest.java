package dev.controlplane.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Upstream EC signatures are verified by the Bouncy Castle provider the verifiers are given, and it
 * judges them as the JDK does: signatures made by the JDK verify, altered tokens and the degenerate
 * signatures of CVE-2022-21449 (r = s = 0, or r and s equal to the group order) do not.
 */
class IssuerKeysTest {

  private static final BigInteger P256_ORDER =
      new BigInteger("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551", 16);

  private static SignedJWT signed(ECKey key, JWSAlgorithm alg, String subject) throws Exception {
    SignedJWT jwt =
        new SignedJWT(
            new JWSHeader.Builder(alg).keyID(key.getKeyID()).build(),
            new JWTClaimsSet.Builder().subject(subject).issuer("https://idp.test").build());
    jwt.sign(new ECDSASigner(key));
    return jwt;
  }

  private static JWSVerifier verifierFor(ECKey key) {
    IssuerKeys keys = new IssuerKeys(new JWKSet(key.toPublicJWK()));
    return keys.verifier(keys.keys().get(0)).orElseThrow();
  }

  private static SignedJWT withSignature(SignedJWT jwt, byte[] signature) throws Exception {
    String[] parts = jwt.serialize().split("\\.");
    return SignedJWT.parse(parts[0] + "." + parts[1] + "." + Base64URL.encode(signature));
  }

  @Test
  void ecSignaturesAreVerifiedByBouncyCastleAndAcceptedOnlyWhenIntact() throws Exception {
    for (Curve curve : List.of(Curve.P_256, Curve.P_384, Curve.P_521)) {
      JWSAlgorithm alg =
          JWSAlgorithm.Family.EC.stream()
              .filter(a -> Curve.forJWSAlgorithm(a).contains(curve))
              .findFirst()
              .orElseThrow();
      ECKey key = new ECKeyGenerator(curve).keyID("k-" + curve.getName()).generate();
      JWSVerifier verifier = verifierFor(key);
      assertThat(((ECDSAVerifier) verifier).getJCAContext().getProvider().getName())
          .isEqualTo("BC");
      assertThat(((ECDSAVerifier) verifier).getPublicKey().getClass().getName())
          .as("a key the provider need not convert at every verification")
          .startsWith("org.bouncycastle.");

      SignedJWT token = signed(key, alg, "alice");
      assertThat(SignedJWT.parse(token.serialize()).verify(verifier))
          .as("%s signed by the JDK", alg)
          .isTrue();

      String[] parts = token.serialize().split("\\.");
      String otherClaims = signed(key, alg, "mallory").serialize().split("\\.")[1];
      SignedJWT altered = SignedJWT.parse(parts[0] + "." + otherClaims + "." + parts[2]);
      assertThat(altered.verify(verifier)).as("%s with another payload", alg).isFalse();

      byte[] flipped = token.getSignature().decode();
      flipped[flipped.length / 4] ^= 1;
      assertThat(withSignature(token, flipped).verify(verifier))
          .as("%s with a bit of r flipped", alg)
          .isFalse();
    }
  }

  @Test
  void degenerateP256SignaturesAreRefused() throws Exception {
    ECKey key = new ECKeyGenerator(Curve.P_256).keyID("p256").generate();
    JWSVerifier verifier = verifierFor(key);
    SignedJWT token = signed(key, JWSAlgorithm.ES256, "alice");

    assertThat(withSignature(token, new byte[64]).verify(verifier)).as("r = s = 0").isFalse();

    byte[] order = unsigned32(P256_ORDER);
    byte[] rsOrder = new byte[64];
    System.arraycopy(order, 0, rsOrder, 0, 32);
    System.arraycopy(order, 0, rsOrder, 32, 32);
    assertThat(withSignature(token, rsOrder).verify(verifier)).as("r = s = n").isFalse();
  }

  private static byte[] unsigned32(BigInteger value) {
    byte[] raw = value.toByteArray();
    return raw.length == 32 ? raw : Arrays.copyOfRange(raw, raw.length - 32, raw.length);
  }
}
