package dev.controlplane.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jose.jwk.gen.OctetKeyPairGenerator;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ActiveKeyCacheTest {

  private final AtomicInteger decrypted = new AtomicInteger();

  private OctetKeyPair open(String kid) {
    decrypted.incrementAndGet();
    try {
      return new OctetKeyPairGenerator(Curve.Ed25519).keyID(kid).generate();
    } catch (com.nimbusds.jose.JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void theActiveKeyIsDecryptedOnceAndReusedForEveryToken() {
    ActiveKeyCache cache = new ActiveKeyCache();
    OctetKeyPair first = cache.get("acme", "k1", () -> open("k1"));
    OctetKeyPair again = cache.get("acme", "k1", () -> open("k1"));
    assertThat(again).isSameAs(first);
    assertThat(decrypted).hasValue(1);
  }

  @Test
  void aRotationReplacesTheTenantsKeyInsteadOfKeepingEveryRetiredOne() {
    ActiveKeyCache cache = new ActiveKeyCache();
    for (int rotation = 0; rotation < 50; rotation++) {
      String kid = "k" + rotation;
      assertThat(cache.get("acme", kid, () -> open(kid)).getKeyID()).isEqualTo(kid);
    }
    cache.get("zeta", "z1", () -> open("z1"));
    assertThat(cache.size()).isEqualTo(2);
    assertThat(decrypted).hasValue(51);
  }
}
