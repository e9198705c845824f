package dev.controlplane.auth;

import com.nimbusds.jose.jwk.OctetKeyPair;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Each tenant's decrypted active signing key: decrypted once per key, not once per token, and
 * replaced when the tenant's active key changes, so a rotation leaves no private key behind in
 * memory (one key per tenant, however many rotations the node lives through).
 */
final class ActiveKeyCache {

  private final Map<String, OctetKeyPair> byTenant = new ConcurrentHashMap<>();

  /** The tenant's key {@code kid}, decrypted by {@code open} unless it is the one cached. */
  OctetKeyPair get(String tenant, String kid, Supplier<OctetKeyPair> open) {
    return byTenant.compute(
        tenant,
        (t, cached) ->
            cached != null && Objects.equals(cached.getKeyID(), kid) ? cached : open.get());
  }

  int size() {
    return byTenant.size();
  }
}
