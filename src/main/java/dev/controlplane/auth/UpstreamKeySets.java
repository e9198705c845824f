package dev.controlplane.auth;

import com.nimbusds.jose.jwk.JWKSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Cached upstream key sets, one per configured issuer. A key set is reused for the cache TTL; an
 * unknown {@code kid} may force a refresh, but any fetch for an issuer starts at most once per
 * refresh interval, and concurrent requests that need one share it (they wait for the same future).
 * So a flood of tokens with invented kids costs at most one fetch per interval.
 */
public final class UpstreamKeySets {

  private final KeyFetcher fetcher;
  private final Duration ttl;
  private final Duration refreshInterval;
  private final Clock clock;
  private final Map<String, Entry> entries = new ConcurrentHashMap<>();

  public UpstreamKeySets(KeyFetcher fetcher, Duration ttl, Duration refreshInterval, Clock clock) {
    this.fetcher = fetcher;
    this.ttl = ttl;
    this.refreshInterval = refreshInterval;
    this.clock = clock;
  }

  private static final class Entry {
    JWKSet keys;
    Instant fetchedAt;
    Instant lastAttempt;
    CompletableFuture<JWKSet> inflight;
  }

  /** The issuer's keys: cached while fresh, else fetched (at most once per refresh interval). */
  public JWKSet keys(String tenant, IssuerRecord issuer) {
    return load(entry(tenant, issuer), issuer, false);
  }

  /**
   * Keys after a token named an unknown kid: a refresh if the interval allows one, else the cached
   * set.
   */
  public JWKSet refreshed(String tenant, IssuerRecord issuer) {
    return load(entry(tenant, issuer), issuer, true);
  }

  private Entry entry(String tenant, IssuerRecord issuer) {
    // The URLs are part of the key: an issuer updated to new URLs gets a fresh cache entry.
    String key =
        tenant + "\n" + issuer.issuer() + "\n" + issuer.jwksUrl() + "\n" + issuer.discoveryUrl();
    return entries.computeIfAbsent(key, k -> new Entry());
  }

  private JWKSet load(Entry entry, IssuerRecord issuer, boolean forced) {
    CompletableFuture<JWKSet> mine = null;
    CompletableFuture<JWKSet> shared;
    synchronized (entry) {
      Instant now = clock.instant();
      boolean fresh = entry.keys != null && entry.fetchedAt.plus(ttl).isAfter(now);
      if (entry.inflight != null) {
        shared = entry.inflight;
      } else if ((fresh && !forced) || throttled(entry, now)) {
        return Optional.ofNullable(entry.keys)
            .orElseThrow(
                () -> new TokenRejected("the issuer's signing keys are unavailable; retry later"));
      } else {
        mine = new CompletableFuture<>();
        entry.inflight = mine;
        entry.lastAttempt = now;
        shared = mine;
      }
    }
    if (mine != null) {
      fetchInto(entry, issuer, mine);
    }
    return await(shared);
  }

  private boolean throttled(Entry entry, Instant now) {
    return entry.lastAttempt != null && entry.lastAttempt.plus(refreshInterval).isAfter(now);
  }

  private void fetchInto(Entry entry, IssuerRecord issuer, CompletableFuture<JWKSet> future) {
    try {
      JWKSet keys = fetcher.fetchKeys(issuer);
      synchronized (entry) {
        entry.keys = keys;
        entry.fetchedAt = clock.instant();
        entry.inflight = null;
      }
      future.complete(keys);
    } catch (RuntimeException e) {
      synchronized (entry) {
        entry.inflight = null;
      }
      future.completeExceptionally(e);
    }
  }

  private static JWKSet await(CompletableFuture<JWKSet> future) {
    try {
      return future.get(10, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      String reason = e.getCause() == null ? "unknown" : e.getCause().getMessage();
      throw new TokenRejected("the issuer's signing keys could not be fetched: " + reason);
    } catch (TimeoutException e) {
      throw new TokenRejected("the issuer's signing keys could not be fetched in time");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TokenRejected("interrupted");
    }
  }
}
