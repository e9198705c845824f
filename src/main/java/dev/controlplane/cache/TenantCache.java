package dev.controlplane.cache;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One value per tenant, loaded on first use and kept until {@link TenantChanges} says the tenant's
 * rows changed, or that every tenant's may have. A load that overlaps an invalidation of its
 * tenant, or of every tenant, is used once but not kept, so a value read before a change can never
 * outlive the change's invalidation.
 *
 * <p>Thread-safe: loads run outside any lock (two callers may both load a missing value); the
 * check-and-keep step and the invalidation of one tenant are serialised per tenant by the map. A
 * load notices an invalidation of its tenant through a count of invalidations shared by the tenants
 * of one of {@value #STRIPES} stripes, so what the cache holds beyond its values does not grow with
 * the tenants ever changed (tenants come and go for the life of a node); a change of another tenant
 * of the same stripe only costs an overlapping load its place in the cache. An invalidation of
 * every tenant cannot take each tenant's turn (a tenant being loaded for the first time is not in
 * the map yet), so each kept value carries the count of such invalidations it was loaded under, and
 * a value loaded under an older count is never served.
 */
public final class TenantCache<T> {

  private record Kept<T>(T value, long everyTenantGeneration) {}

  private final Function<String, T> loader;
  private final Predicate<T> worthKeeping;
  private final ConcurrentHashMap<String, Kept<T>> values = new ConcurrentHashMap<>();

  static final int STRIPES = 256;

  /**
   * Bumped by every invalidation of a tenant of the stripe; a load keeps its value only if none
   * happened meanwhile.
   */
  private final AtomicLongArray generations = new AtomicLongArray(STRIPES);

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
    int stripe = stripe(tenant);
    long generation = generations.get(stripe);
    T loaded = loader.apply(tenant);
    if (!worthKeeping.test(loaded)) {
      return loaded;
    }
    values.compute(
        tenant,
        (t, kept) ->
            generations.get(stripe) == generation ? new Kept<>(loaded, everyTenant) : kept);
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
    values.compute(
        tenant,
        (t, kept) -> {
          generations.incrementAndGet(stripe(t));
          return null;
        });
  }

  static int stripe(String tenant) {
    return Math.floorMod(tenant.hashCode(), STRIPES);
  }

  void invalidateAll() {
    everyTenantGeneration.incrementAndGet();
    // Only to free memory: what was kept before is never served again.
    values.clear();
  }
}
