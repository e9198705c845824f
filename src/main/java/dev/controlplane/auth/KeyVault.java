package dev.controlplane.auth;

import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jose.util.Base64URL;
import dev.controlplane.config.AuthConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * Seals and opens stored private keys with the key-encryption key; opens those of the fallback ones
 * too, and seals those again under the current one ({@link #resealed}). In dev mode without one, a
 * fixed, publicly known key is used and a warning logged: such keys are protected by nothing.
 */
@ApplicationScoped
public class KeyVault {

  private static final Logger LOG = Logger.getLogger(KeyVault.class.getName());

  @Inject AuthConfig config;

  private volatile KeyEncryption encryption;

  byte[] seal(String tenant, String kid, OctetKeyPair pair) {
    byte[] stored = (pair.getX() + "." + pair.getD()).getBytes(StandardCharsets.US_ASCII);
    return encryption().encrypt(stored, tenant, kid);
  }

  OctetKeyPair open(String tenant, String kid, byte[] sealed) {
    String[] parts =
        new String(encryption().decrypt(sealed, tenant, kid), StandardCharsets.US_ASCII)
            .split("\\.");
    return new OctetKeyPair.Builder(Curve.Ed25519, new Base64URL(parts[0]))
        .d(new Base64URL(parts[1]))
        .keyID(kid)
        .build();
  }

  /**
   * {@code sealed} sealed again under the current key-encryption key, or empty when it already is.
   * Fails as {@link #open} does when no configured key opens it.
   */
  Optional<byte[]> resealed(String tenant, String kid, byte[] sealed) {
    KeyEncryption e = encryption();
    if (e.isCurrent(sealed)) {
      return Optional.empty();
    }
    return Optional.of(e.encrypt(e.decrypt(sealed, tenant, kid), tenant, kid));
  }

  /** What every key sealed under the current key-encryption key starts with. */
  byte[] currentPrefix() {
    return encryption().currentPrefix();
  }

  /** Whether a configured key-encryption key opens {@code sealed}. */
  boolean opens(String tenant, String kid, byte[] sealed) {
    try {
      encryption().decrypt(sealed, tenant, kid);
      return true;
    } catch (IllegalStateException e) {
      return false;
    }
  }

  private KeyEncryption encryption() {
    KeyEncryption e = encryption;
    if (e == null) {
      byte[] key =
          config
              .keyEncryptionKey()
              .orElseGet(
                  () -> {
                    LOG.warning(
                        "SERVICE_CONTROLPLANE_DEV_MODE: signing keys are stored under a fixed development key; never use this in production");
                    return new byte[32];
                  });
      e = new KeyEncryption(key, config.keyEncryptionKeyFallbacks());
      encryption = e;
    }
    return e;
  }
}
