package dev.controlplane.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.Provider;
import java.security.interfaces.ECPublicKey;
import java.security.spec.X509EncodedKeySpec;
import org.bouncycastle.jce.provider.BouncyCastleProvider;

/**
 * The verifier of upstream EC signatures (ES256, and ES384/ES512 where allowed): nimbus's, with
 * Bouncy Castle's provider given to it and never registered JVM-wide (Liberty's own TLS and
 * everything else keep the JDK's providers). On JDK 17 the JDK's P-256 arithmetic verified about
 * 600–950 signatures/s per core, Bouncy Castle's about 6,000–7,000 on the same machine, and
 * verification was over half of a loaded node's CPU per token exchange. Verification handles only
 * public data, so its speed does not leak a secret. RSA stays with the JDK, whose RSA verification
 * is already cheap.
 */
public final class EcVerifiers {

  /** One instance: building it registers every algorithm. */
  private static final Provider PROVIDER = new BouncyCastleProvider();

  private EcVerifiers() {}

  /**
   * A thread-safe verifier of signatures by {@code key}. The key is converted to the provider's own
   * type first: given a JDK key, Bouncy Castle converts its curve at every verification, which took
   * two thirds of the verification's time.
   */
  public static ECDSAVerifier of(ECPublicKey key) throws JOSEException, GeneralSecurityException {
    ECDSAVerifier verifier =
        new ECDSAVerifier(
            (ECPublicKey)
                KeyFactory.getInstance("EC", PROVIDER)
                    .generatePublic(new X509EncodedKeySpec(key.getEncoded())));
    verifier.getJCAContext().setProvider(PROVIDER);
    return verifier;
  }
}
