package dev.controlplane.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SharedSecretTest {

  private SharedSecret secret(String current, String... fallbacks) {
    return new SharedSecret(Optional.ofNullable(current), List.of(fallbacks));
  }

  @Test
  void theCurrentTokenIsAcceptedExactlyAsPresentedAndNothingElse() {
    SharedSecret s = secret("cur-token");
    assertThat(s.match("Bearer cur-token")).isEqualTo(SharedSecret.Match.CURRENT);
    assertThat(s.match("Bearer cur-toke")).isEqualTo(SharedSecret.Match.NONE);
    assertThat(s.match("bearer cur-token")).isEqualTo(SharedSecret.Match.NONE);
    assertThat(s.match("cur-token")).isEqualTo(SharedSecret.Match.NONE);
    assertThat(s.match(null)).isEqualTo(SharedSecret.Match.NONE);
  }

  @Test
  void aFallbackIsAcceptedAndToldApartFromTheCurrentToken() {
    SharedSecret s = secret("new", "old-1", "old-2");
    assertThat(s.match("Bearer old-2")).isEqualTo(SharedSecret.Match.FALLBACK);
    assertThat(s.accepts("Bearer old-1")).isTrue();
    assertThat(s.match("Bearer new")).isEqualTo(SharedSecret.Match.CURRENT);
    assertThat(s.accepts("Bearer old-3")).isFalse();
  }

  @Test
  void aCredentialWithoutATokenAcceptsNothingItsFallbacksIncluded() {
    SharedSecret s = secret(null, "old");
    assertThat(s.configured()).isFalse();
    assertThat(s.accepts("Bearer old")).isFalse();
    assertThat(s.accepts("Bearer ")).isFalse();
  }

  @Test
  void fallbacksAreCommaSeparatedAndNeedTheCurrentTokenSet() {
    assertThat(SharedCredentials.tokens(Optional.of(" a, ,b "))).containsExactly("a", "b");
    assertThat(SharedCredentials.tokens(Optional.empty())).isEmpty();
    SharedCredentials credentials = new SharedCredentials();
    credentials.config = new ControlPlaneConfig();
    credentials.config.brokerToken = Optional.empty();
    credentials.config.operatorToken = Optional.of("op");
    credentials.brokerTokenFallbacks = Optional.of("old");
    credentials.operatorTokenFallbacks = Optional.of("op-old");
    SettingProblems problems = new SettingProblems();
    credentials.validate(problems);
    org.assertj.core.api.Assertions.assertThatThrownBy(problems::throwIfAny)
        .hasMessage(
            "SERVICE_CONTROLPLANE_BROKER_TOKEN_FALLBACKS is set but"
                + " SERVICE_CONTROLPLANE_BROKER_TOKEN is not: fallbacks are the old tokens still"
                + " accepted while clients move to the current one");
  }
}
