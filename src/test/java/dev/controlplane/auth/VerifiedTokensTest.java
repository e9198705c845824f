package dev.controlplane.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class VerifiedTokensTest {

  private static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");

  private static VerifiedTokens.Entry entry(String principal, Instant expiresAt) {
    return new VerifiedTokens.Entry(
        new ServiceTokens.Verified(principal, "t1", List.of()), "k1", expiresAt);
  }

  @Test
  void aFullMapDropsItsExpiredTokensFirstAndKeepsTheLiveOnes() {
    VerifiedTokens tokens = new VerifiedTokens();
    for (int i = 0; i < VerifiedTokens.MAX; i++) {
      // Every other token has expired by NOW.
      tokens.put("token-" + i, entry("p" + i, NOW.plusSeconds(i % 2 == 0 ? -1 : 600)), NOW);
    }
    assertThat(tokens.size()).isEqualTo(VerifiedTokens.MAX);

    tokens.put("new", entry("new", NOW.plusSeconds(600)), NOW);

    assertThat(tokens.size()).isEqualTo(VerifiedTokens.MAX / 2 + 1);
    assertThat(tokens.get("token-0")).as("expired").isNull();
    assertThat(tokens.get("token-1").verified().principal()).isEqualTo("p1");
    assertThat(tokens.get("new").verified().principal()).isEqualTo("new");
  }

  @Test
  void aMapFullOfLiveTokensStartsOverRatherThanGrowing() {
    VerifiedTokens tokens = new VerifiedTokens();
    for (int i = 0; i < VerifiedTokens.MAX + 5; i++) {
      tokens.put("token-" + i, entry("p" + i, NOW.plusSeconds(600)), NOW);
      assertThat(tokens.size()).isLessThanOrEqualTo(VerifiedTokens.MAX);
    }
    assertThat(tokens.size()).isEqualTo(5);
    assertThat(tokens.get("token-" + (VerifiedTokens.MAX + 4))).isNotNull();
    assertThat(tokens.get("token-0")).isNull();
  }
}
