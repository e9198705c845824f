package dev.controlplane.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class KeyEncryptionKeySettingsTest {

  private static final String KEY = Base64.getEncoder().encodeToString(new byte[32]);

  private static AuthConfig withFallbacks(String value) {
    AuthConfig config = new AuthConfig();
    config.keyEncryptionKeyFallbacks = Optional.ofNullable(value);
    return config;
  }

  @Test
  void fallbackKeysAreReadInOrderAndBlankEntriesSkipped() {
    byte[] second = new byte[32];
    second[0] = 1;
    String value = KEY + ", ," + Base64.getEncoder().encodeToString(second) + " ";
    assertThat(withFallbacks(value).keyEncryptionKeyFallbacks())
        .containsExactly(new byte[32], second);
    assertThat(withFallbacks(null).keyEncryptionKeyFallbacks()).isEmpty();
  }

  @Test
  void aFallbackThatIsNotAKeyIsNamedByItsPositionNeverByItsValue() {
    String shortKey = Base64.getEncoder().encodeToString(new byte[16]);
    assertThatThrownBy(() -> withFallbacks(KEY + "," + shortKey).keyEncryptionKeyFallbacks())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage(
            "SERVICE_CONTROLPLANE_KEY_ENCRYPTION_KEY_FALLBACKS (entry 2) must be 32 bytes"
                + " (base64), got 16");
    assertThatThrownBy(() -> withFallbacks("not base64!").keyEncryptionKeyFallbacks())
        .hasMessage(
            "SERVICE_CONTROLPLANE_KEY_ENCRYPTION_KEY_FALLBACKS (entry 1) is not valid base64")
        .message()
        .doesNotContain("not base64!");
  }
}
