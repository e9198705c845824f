package dev.controlplane.auth;

import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Service tokens this node has verified, by their text, so that a client sending the same token
 * with every request pays for its signature check once: nimbus's Ed25519 verification cost about
 * 0.25 ms of CPU per request, more than the rest of a write on the node (docs/benchmarks.md).
 *
 * <p>An entry only says that the text's signature verified with key {@code kid} and what its claims
 * were. {@link ServiceTokens} still checks, at every use, that the token has not expired and that
 * its key still verifies for its tenant, so a retired or withdrawn key ends its tokens here as it
 * does on first sight. Only tokens that verified are kept, so a client cannot fill the map without
 * valid tokens; at most {@value #MAX}: when full, the expired entries go, and if that is not
 * enough, all of them (they are verified again as they come back).
 *
 * <p>Thread-safe.
 */
final class VerifiedTokens {

  static final int MAX = 10_000;

  /** A verified token: its claims, the key that signed it, and when it expires. */
  record Entry(ServiceTokens.Verified verified, String kid, Instant expiresAt) {}

  private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();

  Entry get(String token) {
    return entries.get(token);
  }

  /** Keeps a token that verified; {@code now} decides which entries have expired. */
  void put(String token, Entry entry, Instant now) {
    if (entries.size() >= MAX) {
      entries.values().removeIf(e -> !e.expiresAt().isAfter(now));
      if (entries.size() >= MAX) {
        entries.clear();
      }
    }
    entries.put(token, entry);
  }

  int size() {
    return entries.size();
  }
}
