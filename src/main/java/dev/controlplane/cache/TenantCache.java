package dev.controlplane.cache;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One value per tenant, loaded on first use and kept until {@link TenantChanges} says the tenant's
 * rows changed, or that every tenant's may have. A load that overlaps an invalidation of its
 * tenant, or of every tenant, is used once but not kept, so a value read before a change can never
 * outlive the change's invalidation.
 *
 * <p>Thread-safe: loads run outside any lock (two callers may both load a missing value); the
 * check-and-keep step and the invalidation of one tenant are serialised per tenant by the map. An
 * invalidation of every tenant cannot take each tenant's turn (a tenant being loaded for the first
 * time is not in the map yet), so each kept value carries the count of such invalidations it was
 * loaded under, and a value loaded under an older count is never served.
 */
public final class TenantCache<T> {

  private record Kept<T>(T value, long everyTenantGeneration) {}

  private final Function<String, T> loader;
  private final Predicate<T> worthKeeping;
  private final ConcurrentHashMap<String, Kept<T>> values = new ConcurrentHashMap<>();

  /** Bumped by every invalidation; a load keeps its value only if none happened meanwhile. */
  private final ConcurrentHashMap<String, Long> generations = new ConcurrentHashMap<>();

  /** Bumped by every invalidation of every tenant. */
  private final AtomicLong everyTenantGeneration = new AtomicLong();

  TenantCache(Function<String, T> loader, Predicate<T> worthKeeping) {
    this.loader = loader;
    this.worthKeeping = worthKeeping;
  }

  public T get(String tenant) {
    T cached = peek(tenant);
    if (cached != null) {
      return cached;
    }
    long everyTenant = everyTenantGeneration.get();
    long generation = generations.getOrDefault(tenant, 0L);
    T loaded = loader.apply(tenant);
    if (!worthKeeping.test(loaded)) {
      return loaded;
    }
    generations.compute(
        tenant,
        (t, now) -> {
          long current = now == null ? 0L : now;
          if (current == generation) {
            values.put(t, new Kept<>(loaded, everyTenant));
          }
          return now;
        });
    return loaded;
  }

  /** The kept value, or null when {@link #get} would have to load it. */
  public T peek(String tenant) {
    Kept<T> kept = values.get(tenant);
    return kept != null && kept.everyTenantGeneration() == everyTenantGeneration.get()
        ? kept.value()
        : null;
  }

  /** How many tenants' values are held. */
  int size() {
    return values.size();
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
    everyTenantGeneration.incrementAndGet();
    // Only to free memory: what was kept before is never served again.
    values.clear();
  }
}
