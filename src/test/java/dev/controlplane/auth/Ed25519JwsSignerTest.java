package dev.controlplane.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.Ed25519Signer;
import com.nimbusds.jose.crypto.Ed25519Verifier;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jose.jwk.gen.OctetKeyPairGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Service tokens signed through Bouncy Castle are exactly what nimbus's Tink-based signer makes
 * (Ed25519 is deterministic), so every verifier that accepted them before accepts them now.
 */
class Ed25519JwsSignerTest {

  @Test
  void signaturesAreByteForByteTinksAndVerify() throws Exception {
    Random random = new Random(7);
    for (int i = 0; i < 50; i++) {
      OctetKeyPair key = new OctetKeyPairGenerator(Curve.Ed25519).keyID("k" + i).generate();
      StringBuilder subject = new StringBuilder();
      for (int c = random.nextInt(300); c > 0; c--) {
        subject.append((char) ('a' + random.nextInt(26)));
      }
      JWTClaimsSet claims =
          new JWTClaimsSet.Builder()
              .subject(subject.toString())
              .claim("perms", List.of("stream.publish:stream:a/b/*"))
              .build();
      JWSHeader header = new JWSHeader.Builder(JWSAlgorithm.EdDSA).keyID(key.getKeyID()).build();

      SignedJWT ours = new SignedJWT(header, claims);
      ours.sign(new Ed25519JwsSigner(key));
      SignedJWT tinks = new SignedJWT(header, claims);
      tinks.sign(new Ed25519Signer(key));

      assertThat(ours.serialize()).isEqualTo(tinks.serialize());
      assertThat(SignedJWT.parse(ours.serialize()).verify(new Ed25519Verifier(key.toPublicJWK())))
          .isTrue();
    }
  }

  @Test
  void aKeyThatCannotSignIsRefused() throws Exception {
    OctetKeyPair key = new OctetKeyPairGenerator(Curve.Ed25519).keyID("k").generate();
    assertThatThrownBy(() -> new Ed25519JwsSigner(key.toPublicJWK()))
        .isInstanceOf(JOSEException.class)
        .hasMessageContaining("private key");

    OctetKeyPair other = new OctetKeyPairGenerator(Curve.Ed25519).generate();
    OctetKeyPair mismatched =
        new OctetKeyPair.Builder(Curve.Ed25519, other.getX()).d(key.getD()).keyID("k").build();
    assertThatThrownBy(() -> new Ed25519JwsSigner(mismatched))
        .isInstanceOf(JOSEException.class)
        .hasMessageContaining("public key");
  }

  @Test
  void onlyEdDsaHeadersAreSigned() throws Exception {
    OctetKeyPair key = new OctetKeyPairGenerator(Curve.Ed25519).keyID("k").generate();
    assertThatThrownBy(
            () ->
                new Ed25519JwsSigner(key).sign(new JWSHeader(JWSAlgorithm.ES256), "a.b".getBytes()))
        .isInstanceOf(JOSEException.class);
  }
}
