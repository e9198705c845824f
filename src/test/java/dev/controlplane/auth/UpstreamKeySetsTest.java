package dev.controlplane.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.jwk.JWKSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class UpstreamKeySetsTest {

  private static final Duration TTL = Duration.ofMinutes(5);
  private static final Duration REFRESH = Duration.ofMinutes(1);

  private Instant now = Instant.parse("2026-11-29T00:00:00Z");
  private final AtomicInteger fetches = new AtomicInteger();

  private final Clock clock =
      new Clock() {
        @Override
        public ZoneOffset getZone() {
          return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
          return this;
        }

        @Override
        public Instant instant() {
          return now;
        }
      };

  private final UpstreamKeySets sets =
      new UpstreamKeySets(
          issuer -> {
            fetches.incrementAndGet();
            return CompletableFuture.completedFuture(new JWKSet());
          },
          TTL,
          REFRESH,
          clock);

  private static IssuerRecord issuer(String jwksUrl) {
    return new IssuerRecord("https://idp.example", List.of(), null, jwksUrl, null, null, null);
  }

  @Test
  void aFreshKeySetIsFetchedOnceAndServedFromMemory() {
    sets.keys("acme", issuer("https://idp.example/jwks")).join();
    now = now.plus(Duration.ofMinutes(4));
    sets.keys("acme", issuer("https://idp.example/jwks")).join();
    assertThat(fetches).hasValue(1);
  }

  @Test
  void keySetsOfIssuersEditedOrRemovedLongAgoAreForgottenWhenAnotherIssuerComesIn() {
    for (int edit = 0; edit < 20; edit++) {
      sets.keys("acme", issuer("https://idp.example/jwks/" + edit)).join();
    }
    assertThat(sets.remembered()).isEqualTo(20);
    now = now.plus(Duration.ofMinutes(4));
    // A token named a kid this set lacks: refetched now.
    sets.refreshed("acme", issuer("https://idp.example/jwks/19")).join();

    now = now.plus(Duration.ofMinutes(2));
    sets.keys("acme", issuer("https://idp.example/jwks/new")).join();

    // Idle for six minutes, past the TTL: gone. Refreshed two minutes ago: kept, and still fresh.
    assertThat(sets.remembered()).isEqualTo(2);
    int before = fetches.get();
    sets.keys("acme", issuer("https://idp.example/jwks/19")).join();
    assertThat(fetches).hasValue(before);
  }

  @Test
  void aKeySetBeingFetchedIsNotForgotten() {
    CompletableFuture<JWKSet> slow = new CompletableFuture<>();
    UpstreamKeySets waiting = new UpstreamKeySets(issuer -> slow, TTL, REFRESH, clock);
    CompletableFuture<IssuerKeys> pending = waiting.keys("acme", issuer("https://idp.example/a"));
    now = now.plus(Duration.ofHours(1));
    waiting.keys("acme", issuer("https://idp.example/b"));
    assertThat(waiting.remembered()).isEqualTo(2);
    slow.complete(new JWKSet());
    assertThat(pending.join()).isNotNull();
  }

  /** Fetches that the test completes itself, in the order they were asked for. */
  private final List<CompletableFuture<JWKSet>> fetchesMade = new java.util.ArrayList<>();

  private KeySource controlled() {
    return issuer -> {
      CompletableFuture<JWKSet> fetch = new CompletableFuture<>();
      fetchesMade.add(fetch);
      return fetch;
    };
  }

  /**
   * Anyone can force a refresh (a token with an invented kid costs no credential). While it runs,
   * tokens of the keys already held are answered from them: none waits for the refresh, none is
   * refused for want of a waiting place, and none fails when the refresh does.
   */
  @Test
  void aForcedRefreshInFlightNeitherHoldsNorFailsTokensOfTheKeysHeld() {
    UpstreamKeySets held = new UpstreamKeySets(controlled(), TTL, REFRESH, clock);
    IssuerRecord idp = issuer("https://idp.example/jwks");
    CompletableFuture<IssuerKeys> first = held.keys("acme", idp);
    fetchesMade.get(0).complete(new JWKSet());
    IssuerKeys known = first.join();

    now = now.plus(REFRESH);
    CompletableFuture<IssuerKeys> forced = held.refreshed("acme", idp);
    assertThat(fetchesMade).hasSize(2);
    for (int i = 0; i < 2 * UpstreamKeySets.MAX_WAITERS; i++) {
      CompletableFuture<IssuerKeys> served = held.keys("acme", idp);
      assertThat(served).as("request %d", i).isCompleted();
      assertThat(served.join()).isSameAs(known);
    }
    fetchesMade.get(1).completeExceptionally(new java.io.IOException("key server down"));
    assertThat(forced.join()).as("the forced refresh failed: the keys held").isSameAs(known);
    assertThat(held.keys("acme", idp).join()).isSameAs(known);
  }

  @Test
  void aKeySetPastItsTtlIsKeptWhileItsKeyServerIsDownAndAFirstFetchThatFailsRefuses() {
    UpstreamKeySets held = new UpstreamKeySets(controlled(), TTL, REFRESH, clock);
    IssuerRecord idp = issuer("https://idp.example/jwks");
    CompletableFuture<IssuerKeys> never = held.keys("acme", issuer("https://idp.example/other"));
    fetchesMade.get(0).completeExceptionally(new java.io.IOException("refused"));
    assertThatThrownBy(never::join).hasCauseInstanceOf(TokenRejected.class);

    CompletableFuture<IssuerKeys> first = held.keys("acme", idp);
    fetchesMade.get(1).complete(new JWKSet());
    IssuerKeys known = first.join();
    now = now.plus(TTL).plusSeconds(1);
    CompletableFuture<IssuerKeys> stale = held.keys("acme", idp);
    assertThat(fetchesMade).hasSize(3);
    fetchesMade.get(2).completeExceptionally(new java.io.IOException("key server down"));
    assertThat(stale.join()).isSameAs(known);
  }

  /**
   * Past the cache TTL the held set was refetched with every request waiting on the fetch: the
   * first 32 waited, every other exchange of a busy node was refused until the fetch ended. The
   * held keys are now served at once while one refresh runs behind them, and replaced when it ends.
   */
  @Test
  void aKeySetPastItsTtlIsServedAtOnceWhileOneRefreshRunsBehindIt() {
    UpstreamKeySets held = new UpstreamKeySets(controlled(), TTL, REFRESH, clock);
    IssuerRecord idp = issuer("https://idp.example/jwks");
    CompletableFuture<IssuerKeys> first = held.keys("acme", idp);
    fetchesMade.get(0).complete(new JWKSet());
    IssuerKeys known = first.join();

    now = now.plus(TTL).plusSeconds(1);
    for (int i = 0; i < 4 * UpstreamKeySets.MAX_WAITERS; i++) {
      CompletableFuture<IssuerKeys> served = held.keys("acme", idp);
      assertThat(served).as("request %d", i).isCompleted();
      assertThat(served.join()).isSameAs(known);
    }
    assertThat(fetchesMade).as("one refresh for all of them").hasSize(2);
    fetchesMade.get(1).complete(new JWKSet());
    IssuerKeys refreshed = held.keys("acme", idp).join();
    assertThat(refreshed).isNotSameAs(known);
    assertThat(fetchesMade).hasSize(2);
  }
}
