package dev.controlplane.auth;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * AES-256-GCM for stored private keys, under one current key-encryption key and any fallback ones,
 * which only decrypt: the key-encryption key can be replaced without losing what the old one
 * stored. The stored form is {@code 2 || key id(8) || nonce(12) || ciphertext+tag}; the key id
 * names the key-encryption key (the first 8 bytes of an HMAC-SHA256 of a fixed label under it,
 * which tells keys apart without revealing them). The tenant and kid are bound as associated data,
 * so a ciphertext copied to another key's row does not decrypt. Format 1, {@code 1 || nonce(12) ||
 * ciphertext+tag} without a key id (stored until 2026-12-01), is still read by trying each key.
 */
public final class KeyEncryption {

  static final String CURRENT_SETTING = "SERVICE_CONTROLPLANE_KEY_ENCRYPTION_KEY";
  static final String FALLBACK_SETTING = "SERVICE_CONTROLPLANE_KEY_ENCRYPTION_KEY_FALLBACKS";

  private static final byte LEGACY_FORMAT = 1;
  private static final byte FORMAT = 2;
  private static final int ID_BYTES = 8;
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final byte[] ID_LABEL =
      "controlplane key-encryption key id".getBytes(StandardCharsets.US_ASCII);
  private static final SecureRandom RANDOM = new SecureRandom();

  private record Kek(SecretKeySpec key, byte[] id) {}

  private final Kek current;
  private final List<Kek> all;

  public KeyEncryption(byte[] key) {
    this(key, List.of());
  }

  /** Encrypts with {@code current}; decrypts with it or any of {@code fallbacks}. */
  public KeyEncryption(byte[] current, List<byte[]> fallbacks) {
    this.current = kek(current);
    List<Kek> keys = new ArrayList<>(List.of(this.current));
    for (byte[] key : fallbacks) {
      Kek old = kek(key);
      if (keys.stream().noneMatch(k -> Arrays.equals(k.id(), old.id()))) {
        keys.add(old);
      }
    }
    this.all = List.copyOf(keys);
  }

  private static Kek kek(byte[] key) {
    if (key.length != 32) {
      throw new IllegalArgumentException("a key-encryption key must be 32 bytes");
    }
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      byte[] id = Arrays.copyOf(mac.doFinal(ID_LABEL), ID_BYTES);
      return new Kek(new SecretKeySpec(key.clone(), "AES"), id);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HMAC-SHA256 is unavailable", e);
    }
  }

  public byte[] encrypt(byte[] plaintext, String tenant, String kid) {
    byte[] nonce = new byte[NONCE_BYTES];
    RANDOM.nextBytes(nonce);
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.ENCRYPT_MODE, current.key(), new GCMParameterSpec(TAG_BITS, nonce));
      cipher.updateAAD(aad(tenant, kid));
      byte[] sealed = cipher.doFinal(plaintext);
      return ByteBuffer.allocate(1 + ID_BYTES + NONCE_BYTES + sealed.length)
          .put(FORMAT)
          .put(current.id())
          .put(nonce)
          .put(sealed)
          .array();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-GCM is unavailable", e);
    }
  }

  public byte[] decrypt(byte[] stored, String tenant, String kid) {
    if (stored.length >= 1 + ID_BYTES + NONCE_BYTES + TAG_BITS / 8 && stored[0] == FORMAT) {
      byte[] id = Arrays.copyOfRange(stored, 1, 1 + ID_BYTES);
      Kek kek =
          all.stream()
              .filter(k -> MessageDigest.isEqual(k.id(), id))
              .findFirst()
              .orElseThrow(
                  () ->
                      new IllegalStateException(
                          "signing key "
                              + kid
                              + " of tenant "
                              + tenant
                              + " was stored under a key-encryption key that is neither "
                              + CURRENT_SETTING
                              + " nor one of "
                              + FALLBACK_SETTING));
      byte[] opened = open(kek, stored, 1 + ID_BYTES, tenant, kid);
      if (opened == null) {
        throw new IllegalStateException(
            "signing key " + kid + " of tenant " + tenant + " does not decrypt: it was altered");
      }
      return opened;
    }
    if (stored.length >= 1 + NONCE_BYTES + TAG_BITS / 8 && stored[0] == LEGACY_FORMAT) {
      for (Kek kek : all) {
        byte[] opened = open(kek, stored, 1, tenant, kid);
        if (opened != null) {
          return opened;
        }
      }
      throw new IllegalStateException(
          "signing key "
              + kid
              + " of tenant "
              + tenant
              + " cannot be decrypted: neither "
              + CURRENT_SETTING
              + " nor any of "
              + FALLBACK_SETTING
              + " is the key-encryption key that stored it");
    }
    throw new IllegalStateException("signing key " + kid + " is not in a known encrypted format");
  }

  /** Whether {@code stored} is in the current format under the current key: nothing to redo. */
  public boolean isCurrent(byte[] stored) {
    byte[] prefix = currentPrefix();
    return stored.length > prefix.length
        && Arrays.equals(stored, 0, prefix.length, prefix, 0, prefix.length);
  }

  /** The bytes every key stored under the current key starts with, to find the others in SQL. */
  public byte[] currentPrefix() {
    return ByteBuffer.allocate(1 + ID_BYTES).put(FORMAT).put(current.id()).array();
  }

  /** The opened plaintext, or null when {@code kek} is not the key that sealed it. */
  private static byte[] open(Kek kek, byte[] stored, int nonceAt, String tenant, String kid) {
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(
          Cipher.DECRYPT_MODE,
          kek.key(),
          new GCMParameterSpec(TAG_BITS, stored, nonceAt, NONCE_BYTES));
      cipher.updateAAD(aad(tenant, kid));
      int sealedAt = nonceAt + NONCE_BYTES;
      return cipher.doFinal(stored, sealedAt, stored.length - sealedAt);
    } catch (javax.crypto.AEADBadTagException wrongKey) {
      return null;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-GCM is unavailable", e);
    }
  }

  private static byte[] aad(String tenant, String kid) {
    return (tenant + "|" + kid).getBytes(StandardCharsets.UTF_8);
  }
}
