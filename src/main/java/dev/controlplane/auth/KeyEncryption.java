package dev.controlplane.auth;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * AES-256-GCM for stored private keys. The stored form is {@code version(1) || nonce(12) ||
 * ciphertext+tag}; the tenant and kid are bound as associated data, so a ciphertext copied to
 * another key's row does not decrypt.
 */
public final class KeyEncryption {

  private static final byte FORMAT = 1;
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final SecretKeySpec key;

  public KeyEncryption(byte[] key) {
    if (key.length != 32) {
      throw new IllegalArgumentException("the key-encryption key must be 32 bytes");
    }
    this.key = new SecretKeySpec(key.clone(), "AES");
  }

  public byte[] encrypt(byte[] plaintext, String tenant, String kid) {
    byte[] nonce = new byte[NONCE_BYTES];
    RANDOM.nextBytes(nonce);
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
      cipher.updateAAD(aad(tenant, kid));
      byte[] sealed = cipher.doFinal(plaintext);
      return ByteBuffer.allocate(1 + NONCE_BYTES + sealed.length)
          .put(FORMAT)
          .put(nonce)
          .put(sealed)
          .array();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-GCM is unavailable", e);
    }
  }

  public byte[] decrypt(byte[] stored, String tenant, String kid) {
    if (stored.length < 1 + NONCE_BYTES + TAG_BITS / 8 || stored[0] != FORMAT) {
      throw new IllegalStateException("signing key " + kid + " is not in a known encrypted format");
    }
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, stored, 1, NONCE_BYTES));
      cipher.updateAAD(aad(tenant, kid));
      return cipher.doFinal(stored, 1 + NONCE_BYTES, stored.length - 1 - NONCE_BYTES);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(
          "signing key "
              + kid
              + " cannot be decrypted: SERVICE_CONTROLPLANE_KEY_ENCRYPTION_KEY differs from the one that stored it");
    }
  }

  private static byte[] aad(String tenant, String kid) {
    return (tenant + "|" + kid).getBytes(StandardCharsets.UTF_8);
  }
}
