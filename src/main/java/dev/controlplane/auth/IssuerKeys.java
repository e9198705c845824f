package dev.controlplane.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.Provider;
import java.security.interfaces.ECPublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.bouncycastle.jce.provider.BouncyCastleProvider;

/**
 * One fetch of an issuer's key set, each EC and RSA key with its verifier built once. Building a
 * verifier per token (decoding the key into a JCA public key, checking the point) cost about 1.5 %
 * of a node's CPU under exchanges; the verifiers are thread-safe, and a set is only replaced, never
 * changed.
 *
 * <p>EC signatures are verified by Bouncy Castle's provider, given to each verifier and never
 * registered JVM-wide (Liberty's own TLS and everything else keep the JDK's providers). On JDK 17
 * the JDK's P-256 arithmetic verified about 600–950 signatures/s per core, Bouncy Castle's about
 * 6,000–7,000 on the same machine (given keys of its own type), and verification was over half of a
 * loaded node's CPU per token exchange. Verification handles only public data, so its speed does
 * not leak a secret. RSA stays with the JDK, whose RSA verification is already cheap.
 */
final class IssuerKeys {

  /** The provider of every EC verifier; one instance, as building it registers every algorithm. */
  static final Provider EC_PROVIDER = new BouncyCastleProvider();

  private final List<JWK> keys;
  private final Map<JWK, JWSVerifier> verifiers = new IdentityHashMap<>();

  IssuerKeys(JWKSet set) {
    this.keys = List.copyOf(set.getKeys());
    for (JWK key : keys) {
      verifierOf(key).ifPresent(v -> verifiers.put(key, v));
    }
  }

  List<JWK> keys() {
    return keys;
  }

  /** The key's verifier; empty for a key of another type, or one that is not a valid public key. */
  Optional<JWSVerifier> verifier(JWK key) {
    return Optional.ofNullable(verifiers.get(key));
  }

  private static Optional<JWSVerifier> verifierOf(JWK key) {
    try {
      if (key instanceof ECKey ec) {
        ECDSAVerifier verifier = new ECDSAVerifier(inProvider(ec.toECPublicKey()));
        verifier.getJCAContext().setProvider(EC_PROVIDER);
        return Optional.of(verifier);
      }
      if (key instanceof RSAKey rsa) {
        return Optional.of(new RSASSAVerifier(rsa.toRSAPublicKey()));
      }
    } catch (JOSEException | GeneralSecurityException | RuntimeException unusable) {
      // Such a key verifies nothing, as before when the verifier was built per token.
    }
    return Optional.empty();
  }

  /**
   * The key as the provider's own type. Given a JDK key, Bouncy Castle converts its curve at every
   * verification, which took two thirds of the verification's time.
   */
  static ECPublicKey inProvider(ECPublicKey key) throws GeneralSecurityException {
    return (ECPublicKey)
        KeyFactory.getInstance("EC", EC_PROVIDER)
            .generatePublic(new X509EncodedKeySpec(key.getEncoded()));
  }
}
