package dev.controlplane.cache;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * One value per tenant, loaded on first use and kept until {@link TenantChanges} says the tenant's
 * rows changed. A load that overlaps an invalidation of the same tenant is used once but not kept,
 * so a value read before a change can never outlive the change's invalidation.
 *
 * <p>Thread-safe: loads run outside any lock (two callers may both load a missing value); the
 * check-and-keep step and the invalidation are serialised per tenant by the map.
 */
public final class TenantCache<T> {

  private final Function<String, T> loader;
  private final ConcurrentHashMap<String, T> values = new ConcurrentHashMap<>();

  /** Bumped by every invalidation; a load keeps its value only if none happened meanwhile. */
  private final ConcurrentHashMap<String, Long> generations = new ConcurrentHashMap<>();

  TenantCache(Function<String, T> loader) {
    this.loader = loader;
  }

  public T get(String tenant) {
    T cached = values.get(tenant);
    if (cached != null) {
      return cached;
    }
    long generation = generations.getOrDefault(tenant, 0L);
    T loaded = loader.apply(tenant);
    generations.compute(
        tenant,
        (t, now) -> {
          long current = now == null ? 0L : now;
          if (current == generation) {
            values.put(t, loaded);
          }
          return now;
        });
    return loaded;
  }

  /** The kept value, or null when {@link #get} would have to load it. */
  public T peek(String tenant) {
    return values.get(tenant);
  }

  void invalidate(String tenant) {
    generations.compute(
        tenant,
        (t, now) -> {
          values.remove(t);
          return now == null ? 1L : now + 1;
        });
  }

  void invalidateAll() {
    for (String tenant : values.keySet()) {
      invalidate(tenant);
    }
  }
}
