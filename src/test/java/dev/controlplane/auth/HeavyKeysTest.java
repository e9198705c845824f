package dev.controlplane.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.util.Base64URL;
import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * RSA keys that make every junk token expensive (huge exponents or moduli) or that are weak are
 * dropped when a key set is loaded; ordinary keys stay.
 */
class HeavyKeysTest {

  private static final SecureRandom RANDOM = new SecureRandom();

  private static RSAKey rsa(String kid, int modulusBits, BigInteger exponent) {
    BigInteger modulus = new BigInteger(modulusBits, RANDOM).setBit(modulusBits - 1).setBit(0);
    return new RSAKey.Builder(Base64URL.encode(modulus), Base64URL.encode(exponent))
        .keyID(kid)
        .build();
  }

  @Test
  void weakHugeAndOddExponentKeysAreDroppedOrdinaryOnesKept() {
    BigInteger f4 = BigInteger.valueOf(65537);
    JWKSet loaded =
        new JWKSet(
            List.of(
                rsa("ok-2048", 2048, f4),
                rsa("ok-4096", 4096, f4),
                rsa("ok-e3", 2048, BigInteger.valueOf(3)),
                rsa("weak", 1024, f4),
                rsa("huge", 16384, f4),
                rsa("heavy-exponent", 2048, new BigInteger(3071, RANDOM).setBit(3070).setBit(0)),
                rsa("odd-exponent", 2048, BigInteger.valueOf(17))));
    assertThat(KeyFetcher.usable(loaded).getKeys())
        .extracting(k -> k.getKeyID())
        .containsExactly("ok-2048", "ok-4096", "ok-e3");
  }
}
