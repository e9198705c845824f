package dev.controlplane.auth;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * A private key as the builds before 2026-12-01 stored it, with no id of its key-encryption key:
 * {@code 1 || nonce(12) || AES-256-GCM(plaintext)} with {@code tenant|kid} as associated data.
 * Written here as those builds did, so tests can give the current one what they left behind.
 */
public final class LegacyKeyFormat {

  private LegacyKeyFormat() {}

  public static byte[] seal(byte[] key, byte[] plaintext, String tenant, String kid)
      throws Exception {
    byte[] nonce = new byte[12];
    new SecureRandom().nextBytes(nonce);
    Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
    cipher.init(
        Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(128, nonce));
    cipher.updateAAD((tenant + "|" + kid).getBytes(StandardCharsets.UTF_8));
    byte[] sealed = cipher.doFinal(plaintext);
    return ByteBuffer.allocate(1 + 12 + sealed.length).put((byte) 1).put(nonce).put(sealed).array();
  }
}
