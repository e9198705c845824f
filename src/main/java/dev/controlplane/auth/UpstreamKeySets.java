package dev.controlplane.auth;

import com.nimbusds.jose.jwk.JWKSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Cached upstream key sets, one per configured issuer. A key set is reused for the cache TTL; an
 * unknown {@code kid} may force a refresh, but any fetch for an issuer starts at most once per
 * refresh interval, and concurrent requests that need one share it. So a flood of tokens with
 * invented kids costs at most one fetch per interval.
 *
 * <p>Nothing here blocks: callers get a future. At most {@link #MAX_WAITERS} requests wait for an
 * issuer's fetch in progress; more are refused at once, so a slow or hostile key server of one
 * issuer holds a bounded number of requests, and no thread at all.
 */
public final class UpstreamKeySets {

  static final int MAX_WAITERS = 32;

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
    IssuerKeys keys;
    Instant fetchedAt;
    Instant lastAttempt;
    CompletableFuture<IssuerKeys> inflight;
    int waiters;
  }

  /** The issuer's keys: cached while fresh, else fetched (at most once per refresh interval). */
  public CompletableFuture<IssuerKeys> keys(String tenant, IssuerRecord issuer) {
    return load(entry(tenant, issuer), issuer, false);
  }

  /**
   * Keys after a token named an unknown kid: a refresh if the interval allows one, else the cached
   * set.
   */
  public CompletableFuture<IssuerKeys> refreshed(String tenant, IssuerRecord issuer) {
    return load(entry(tenant, issuer), issuer, true);
  }

  private Entry entry(String tenant, IssuerRecord issuer) {
    // The URLs are part of the key: an issuer updated to new URLs gets a fresh cache entry.
    String key =
        tenant + "\n" + issuer.issuer() + "\n" + issuer.jwksUrl() + "\n" + issuer.discoveryUrl();
    return entries.computeIfAbsent(key, k -> new Entry());
  }

  private CompletableFuture<IssuerKeys> load(Entry entry, IssuerRecord issuer, boolean forced) {
    synchronized (entry) {
      Instant now = clock.instant();
      boolean fresh = entry.keys != null && entry.fetchedAt.plus(ttl).isAfter(now);
      if (entry.inflight != null) {
        if (entry.waiters >= MAX_WAITERS) {
          return refused("too many requests already wait for this issuer's keys");
        }
        entry.waiters++;
        return entry.inflight;
      }
      if ((fresh && !forced) || throttled(entry, now)) {
        return entry.keys != null
            ? CompletableFuture.completedFuture(entry.keys)
            : refused("the issuer's signing keys are unavailable; retry later");
      }
      CompletableFuture<IssuerKeys> fetch = new CompletableFuture<>();
      entry.inflight = fetch;
      entry.waiters = 1;
      entry.lastAttempt = now;
      fetcher
          .fetchAsync(issuer)
          .whenComplete((keys, failure) -> settle(entry, fetch, keys, failure));
      return fetch;
    }
  }

  private void settle(
      Entry entry, CompletableFuture<IssuerKeys> fetch, JWKSet set, Throwable failure) {
    IssuerKeys keys = failure == null ? new IssuerKeys(set) : null;
    synchronized (entry) {
      if (failure == null) {
        entry.keys = keys;
        entry.fetchedAt = clock.instant();
      }
      entry.inflight = null;
      entry.waiters = 0;
    }
    if (failure == null) {
      fetch.complete(keys);
    } else {
      Throwable cause =
          failure instanceof CompletionException && failure.getCause() != null
              ? failure.getCause()
              : failure;
      fetch.completeExceptionally(
          new TokenRejected(
              "the issuer's signing keys could not be fetched: " + cause.getMessage()));
    }
  }

  private boolean throttled(Entry entry, Instant now) {
    return entry.lastAttempt != null && entry.lastAttempt.plus(refreshInterval).isAfter(now);
  }

  private static CompletableFuture<IssuerKeys> refused(String reason) {
    return CompletableFuture.failedFuture(new TokenRejected(reason));
  }
}
