package dev.controlplane.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
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
  void thePrincipalIdIsTheHexSha256OfIssuerBarSubject() {
    // echo -n 'https://idp.example|alice' | sha256sum
    assertThat(PrincipalId.of("https://idp.example", "alice"))
        .isEqualTo("8844f38bbb223c85782d86fb1620b14b563ee3d8fc15e4fb78c3e8f2e1f41806");
    assertThat(PrincipalId.of("https://idp.example", "alice"))
        .isNotEqualTo(PrincipalId.of("https://idp.example|", "alice"));
  }
}
