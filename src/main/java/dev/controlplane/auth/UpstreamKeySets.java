package dev.controlplane.auth;

import com.nimbusds.jose.jwk.JWKSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

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

  private static final Logger LOG = Logger.getLogger(UpstreamKeySets.class.getName());

  private final KeySource fetcher;
  private final Duration ttl;
  private final Duration refreshInterval;
  private final Clock clock;
  private final Map<String, Entry> entries = new ConcurrentHashMap<>();

  /** An entry unused for longer holds neither fresh keys nor a throttle that still applies. */
  private final Duration idleLimit;

  public UpstreamKeySets(KeyFetcher fetcher, Duration ttl, Duration refreshInterval, Clock clock) {
    this((KeySource) fetcher, ttl, refreshInterval, clock);
  }

  UpstreamKeySets(KeySource fetcher, Duration ttl, Duration refreshInterval, Clock clock) {
    this.fetcher = fetcher;
    this.ttl = ttl;
    this.refreshInterval = refreshInterval;
    this.clock = clock;
    this.idleLimit = ttl.compareTo(refreshInterval) >= 0 ? ttl : refreshInterval;
  }

  private static final class Entry {
    IssuerKeys keys;
    Instant fetchedAt;
    Instant lastAttempt;
    Instant lastUsed;
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
    Entry known = entries.get(key);
    if (known != null) {
      return known;
    }
    // A new key means an issuer added or edited: the entries of the issuers edited or removed
    // since would otherwise stay for the node's lifetime. Keys come from the stored issuers, never
    // from tokens, so a caller cannot make this run per request.
    forgetIdle(clock.instant());
    return entries.computeIfAbsent(key, k -> new Entry());
  }

  private void forgetIdle(Instant now) {
    entries
        .values()
        .removeIf(
            entry -> {
              synchronized (entry) {
                return entry.inflight == null
                    && entry.lastUsed != null
                    && entry.lastUsed.plus(idleLimit).isBefore(now);
              }
            });
  }

  /** How many issuers' key sets are remembered. */
  int remembered() {
    return entries.size();
  }

  private CompletableFuture<IssuerKeys> load(Entry entry, IssuerRecord issuer, boolean forced) {
    synchronized (entry) {
      Instant now = clock.instant();
      entry.lastUsed = now;
      // Tokens of the keys already held never wait on a fetch nor fail with one: not one forced
      // with an invented kid, nor the refresh due when the set is older than the cache TTL, which
      // runs in the background while the held set is served. Waiting on it, only 32 requests could
      // wait and the rest of a busy node's exchanges were refused every TTL.
      if (entry.keys != null && !forced) {
        boolean fresh = entry.fetchedAt.plus(ttl).isAfter(now);
        if (!fresh && entry.inflight == null && !throttled(entry, now)) {
          fetch(entry, issuer, now);
        }
        return CompletableFuture.completedFuture(entry.keys);
      }
      if (entry.inflight != null) {
        if (entry.waiters >= MAX_WAITERS) {
          return refused("too many requests already wait for this issuer's keys");
        }
        entry.waiters++;
        return entry.inflight;
      }
      if (throttled(entry, now)) {
        return entry.keys != null
            ? CompletableFuture.completedFuture(entry.keys)
            : refused("the issuer's signing keys are unavailable; retry later");
      }
      entry.waiters = 1;
      return fetch(entry, issuer, now);
    }
  }

  /** Starts a fetch of the issuer's keys; the caller holds the entry's lock. */
  private CompletableFuture<IssuerKeys> fetch(Entry entry, IssuerRecord issuer, Instant now) {
    CompletableFuture<IssuerKeys> fetch = new CompletableFuture<>();
    entry.inflight = fetch;
    entry.lastAttempt = now;
    fetcher
        .fetchAsync(issuer)
        .whenComplete((keys, failure) -> settle(entry, issuer, fetch, keys, failure));
    return fetch;
  }

  /**
   * A failed fetch leaves the keys held before it, and its waiters get them, as every request until
   * the next attempt does: a key server that is down does not stop the tokens of keys already known
   * (Kubernetes' OIDC authenticator keeps its last key set the same way).
   */
  private void settle(
      Entry entry,
      IssuerRecord issuer,
      CompletableFuture<IssuerKeys> fetch,
      JWKSet set,
      Throwable failure) {
    Throwable cause =
        failure instanceof CompletionException && failure.getCause() != null
            ? failure.getCause()
            : failure;
    IssuerKeys keys = failure == null ? new IssuerKeys(set) : null;
    Instant heldSince = null;
    synchronized (entry) {
      if (failure == null) {
        entry.keys = keys;
        entry.fetchedAt = clock.instant();
      } else {
        keys = entry.keys;
        heldSince = entry.fetchedAt;
      }
      entry.inflight = null;
      entry.waiters = 0;
    }
    if (heldSince != null) {
      LOG.warning(
          "the signing keys of issuer "
              + issuer.issuer()
              + " could not be refreshed ("
              + cause.getMessage()
              + "); still using the key set fetched at "
              + heldSince);
    }
    if (keys != null) {
      fetch.complete(keys);
    } else {
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
