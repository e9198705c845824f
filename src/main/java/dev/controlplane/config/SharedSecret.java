package dev.controlplane.config;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A shared credential presented as {@code Bearer <token>}: the configured token and, while it is
 * being replaced, its fallbacks, which are accepted too, so that clients can move to a new token
 * one at a time instead of all at once. The presented value is compared in constant time with every
 * accepted token, so the time taken tells neither which one matched nor how much of one. The edges
 * count each request that presents a fallback ({@link SharedCredentials#countFallbackUse}): once
 * the count stops rising, no client uses an old token any more and the fallbacks can go.
 *
 * <p>Thread-safe.
 */
public final class SharedSecret {

  /** How a presented value matched. */
  public enum Match {
    NONE,
    CURRENT,
    FALLBACK
  }

  private final byte[] current;
  private final List<byte[]> fallbacks;

  public SharedSecret(Optional<String> current, List<String> fallbacks) {
    this.current = current.map(SharedSecret::bearer).orElse(null);
    List<byte[]> accepted = new ArrayList<>();
    for (String token : fallbacks) {
      accepted.add(bearer(token));
    }
    this.fallbacks = List.copyOf(accepted);
  }

  /** Whether a token is configured at all (a credential without one accepts nothing). */
  public boolean configured() {
    return current != null;
  }

  /** How {@code authorization}, a whole header value ({@code Bearer <token>}), matches. */
  public Match match(String authorization) {
    if (current == null || authorization == null) {
      return Match.NONE;
    }
    byte[] presented = authorization.getBytes(StandardCharsets.UTF_8);
    boolean isCurrent = MessageDigest.isEqual(current, presented);
    boolean isFallback = false;
    for (byte[] fallback : fallbacks) {
      isFallback |= MessageDigest.isEqual(fallback, presented);
    }
    if (isCurrent) {
      return Match.CURRENT;
    }
    return isFallback ? Match.FALLBACK : Match.NONE;
  }

  /** Whether {@code authorization} carries the token or one of its fallbacks. */
  public boolean accepts(String authorization) {
    return match(authorization) != Match.NONE;
  }

  private static byte[] bearer(String token) {
    return ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
  }
}
