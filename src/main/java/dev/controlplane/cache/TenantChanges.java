package dev.controlplane.cache;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Where tenant-scoped caches learn that their rows changed. Two sources feed it: a trigger on the
 * RBAC, issuer and signing-key tables sends {@code pg_notify('}{@value #CHANNEL}{@code ', tenant)}
 * on commit, which the node's change listener relays from any writer (another node, an operator's
 * SQL); and the write pipeline calls {@link #changedAll} right after a batch that touched those
 * tables commits, so the node that wrote reads its own write at once. A lost listener connection
 * invalidates everything, since notifications sent meanwhile are gone.
 */
@ApplicationScoped
public class TenantChanges {

  /** The PostgreSQL channel of the auth tables' trigger (migration V7). */
  public static final String CHANNEL = "controlplane_auth";

  private final List<TenantCache<?>> caches = new CopyOnWriteArrayList<>();

  /** A new cache of values loaded by {@code loader}, invalidated with the others. */
  public <T> TenantCache<T> cache(Function<String, T> loader) {
    return cache(loader, value -> true);
  }

  /**
   * A cache that keeps only the values {@code worthKeeping} accepts. For caches reached before the
   * caller is authenticated, with a tenant name the caller chose: an empty value (no such tenant,
   * or nothing configured) is loaded again each time rather than kept, so requests naming made-up
   * tenants cannot grow the cache without bound.
   */
  public <T> TenantCache<T> cache(Function<String, T> loader, Predicate<T> worthKeeping) {
    TenantCache<T> cache = new TenantCache<>(loader, worthKeeping);
    caches.add(cache);
    return cache;
  }

  public void changed(String tenant) {
    caches.forEach(c -> c.invalidate(tenant));
  }

  public void changedAll() {
    caches.forEach(TenantCache::invalidateAll);
  }
}
