package dev.controlplane.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyEncryptionTest {

  private final KeyEncryption kek = new KeyEncryption(new byte[32]);

  @Test
  void aSealedKeyOpensOnlyForItsOwnTenantAndKidAndUnderTheSameKey() {
    byte[] secret = "private key".getBytes(StandardCharsets.UTF_8);
    byte[] sealed = kek.encrypt(secret, "acme", "k1");
    assertThat(new String(sealed, StandardCharsets.ISO_8859_1)).doesNotContain("private key");
    assertThat(kek.decrypt(sealed, "acme", "k1")).isEqualTo(secret);
    assertThatThrownBy(() -> kek.decrypt(sealed, "evil", "k1"))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> kek.decrypt(sealed, "acme", "k2"))
        .isInstanceOf(IllegalStateException.class);
    byte[] other = new byte[32];
    other[0] = 1;
    assertThatThrownBy(() -> new KeyEncryption(other).decrypt(sealed, "acme", "k1"))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void aKeySealedUnderAPreviousKeyEncryptionKeyOpensAndIsSealedAgainUnderTheCurrentOne() {
    byte[] secret = "private key".getBytes(StandardCharsets.UTF_8);
    byte[] oldKey = key(7);
    byte[] newKey = key(9);
    byte[] underOld = new KeyEncryption(oldKey).encrypt(secret, "acme", "k1");

    KeyEncryption rotated = new KeyEncryption(newKey, List.of(oldKey));
    assertThat(rotated.decrypt(underOld, "acme", "k1")).isEqualTo(secret);
    assertThat(rotated.isCurrent(underOld)).isFalse();
    byte[] again = rotated.encrypt(secret, "acme", "k1");
    assertThat(rotated.isCurrent(again)).isTrue();
    assertThat(again).startsWith(rotated.currentPrefix());

    // Once the old key is dropped, what it sealed is refused naming both settings.
    assertThat(new KeyEncryption(newKey).decrypt(again, "acme", "k1")).isEqualTo(secret);
    assertThatThrownBy(() -> new KeyEncryption(newKey).decrypt(underOld, "acme", "k1"))
        .hasMessageContaining("signing key k1 of tenant acme was stored under a key-encryption key")
        .hasMessageContaining("SERVICE_CONTROLPLANE_KEY_ENCRYPTION_KEY")
        .hasMessageContaining("SERVICE_CONTROLPLANE_KEY_ENCRYPTION_KEY_FALLBACKS");
  }

  @Test
  void aKeyStoredInTheFormatBeforeKeyIdsOpensUnderWhicheverConfiguredKeySealedIt()
      throws Exception {
    byte[] secret = "private key".getBytes(StandardCharsets.UTF_8);
    byte[] oldKey = key(7);
    byte[] legacy = LegacyKeyFormat.seal(oldKey, secret, "acme", "k1");

    assertThat(new KeyEncryption(oldKey).decrypt(legacy, "acme", "k1")).isEqualTo(secret);
    KeyEncryption rotated = new KeyEncryption(key(9), List.of(key(8), oldKey));
    assertThat(rotated.decrypt(legacy, "acme", "k1")).isEqualTo(secret);
    assertThat(rotated.isCurrent(legacy)).as("stored again, with its key's id").isFalse();
    assertThat(new KeyEncryption(oldKey).isCurrent(legacy)).isFalse();
    assertThatThrownBy(() -> new KeyEncryption(key(9)).decrypt(legacy, "acme", "k1"))
        .hasMessageContaining("neither SERVICE_CONTROLPLANE_KEY_ENCRYPTION_KEY nor any of");
    assertThatThrownBy(() -> rotated.decrypt(legacy, "acme", "k2"))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void keyIdsTellKeyEncryptionKeysApart() {
    byte[] a = new KeyEncryption(key(1)).currentPrefix();
    byte[] b = new KeyEncryption(key(2)).currentPrefix();
    assertThat(a).hasSize(9).isNotEqualTo(b);
    assertThat(new KeyEncryption(key(1), List.of(key(2))).currentPrefix()).isEqualTo(a);
  }

  /** A key of 32 bytes of {@code fill}. */
  private static byte[] key(int fill) {
    byte[] key = new byte[32];
    java.util.Arrays.fill(key, (byte) fill);
    return key;
  }

  @Test
  void thePrincipalIdIsTheHexSha256OfIssuerBarSubject() {
    // echo -n 'https://idp.example|alice' | sha256sum
    assertThat(PrincipalId.of("https://idp.example", "alice"))
        .isEqualTo("8844f38bbb223c85782d86fb1620b14b563ee3d8fc15e4fb78c3e8f2e1f41806");
    assertThat(PrincipalId.of("https://idp.example", "alice"))
        .isNotEqualTo(PrincipalId.of("https://idp.example|", "alice"));
  }
}
