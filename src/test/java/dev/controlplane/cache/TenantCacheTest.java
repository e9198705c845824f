package dev.controlplane.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class TenantCacheTest {

  private final TenantChanges changes = new TenantChanges();
  private final AtomicInteger loads = new AtomicInteger();

  @Test
  void aValueIsLoadedOnceAndServedFromMemoryUntilItsTenantChanges() {
    TenantCache<String> cache = changes.cache(t -> t + "#" + loads.incrementAndGet());
    assertThat(cache.get("a")).isEqualTo("a#1");
    assertThat(cache.get("a")).isEqualTo("a#1");
    assertThat(cache.get("b")).isEqualTo("b#2");

    changes.changed("a");

    assertThat(cache.get("a")).isEqualTo("a#3");
    assertThat(cache.get("b")).as("another tenant keeps its value").isEqualTo("b#2");
  }

  @Test
  void aChangedTenantLeavesNothingHeld() {
    // A signing cache holds decrypted private keys: a rotated or deleted tenant's must go.
    TenantCache<String> cache = changes.cache(t -> t + "#" + loads.incrementAndGet());
    for (int i = 0; i < 1_000; i++) {
      cache.get("tenant-" + i);
    }
    assertThat(cache.size()).isEqualTo(1_000);

    for (int i = 0; i < 1_000; i++) {
      changes.changed("tenant-" + i);
    }

    assertThat(cache.size()).isZero();
    assertThat(cache.peek("tenant-1")).isNull();
  }

  @Test
  void aValueNotWorthKeepingIsLoadedEachTimeAndNeverHeld() {
    TenantCache<String> cache =
        changes.cache(
            t -> t.startsWith("real") ? t + "#" + loads.incrementAndGet() : "", v -> !v.isEmpty());
    for (int i = 0; i < 10_000; i++) {
      assertThat(cache.get("made-up-" + i)).isEmpty();
    }
    assertThat(cache.peek("made-up-1")).as("an empty answer is not kept").isNull();
    assertThat(cache.get("real")).isEqualTo("real#1");
    assertThat(cache.get("real")).as("a real one is").isEqualTo("real#1");
    assertThat(cache.size()).isEqualTo(1);
  }

  @Test
  void changedAllDropsEveryTenantOfEveryCache() {
    TenantCache<String> first = changes.cache(t -> "first " + loads.incrementAndGet());
    TenantCache<String> second = changes.cache(t -> "second " + loads.incrementAndGet());
    first.get("a");
    second.get("a");

    changes.changedAll();

    assertThat(first.get("a")).isEqualTo("first 3");
    assertThat(second.get("a")).isEqualTo("second 4");
  }

  @Test
  void aLoadOverlappingAChangeOfItsTenantIsAnsweredButNotKept() {
    Function<String, String> loader =
        t -> {
          int n = loads.incrementAndGet();
          if (n == 1) {
            // The rows change while the first load is reading them: what it read may be old.
            changes.changed(t);
          }
          return "load " + n;
        };
    TenantCache<String> cache = changes.cache(loader);

    assertThat(cache.get("a")).isEqualTo("load 1");
    assertThat(cache.get("a")).as("the overlapping load was not kept").isEqualTo("load 2");
    assertThat(cache.get("a")).isEqualTo("load 2");
  }

  @Test
  void aFirstLoadOverlappingAChangeOfEveryTenantIsAnsweredButNotKept() {
    // The node's LISTEN connection came back while the tenant's first load was reading: changes
    // made meanwhile were never announced, so what that load read may be old.
    Function<String, String> loader =
        t -> {
          int n = loads.incrementAndGet();
          if (n == 1) {
            changes.changedAll();
          }
          return "load " + n;
        };
    TenantCache<String> cache = changes.cache(loader);

    assertThat(cache.get("a")).isEqualTo("load 1");
    assertThat(cache.peek("a")).as("the overlapping load was not kept").isNull();
    assertThat(cache.get("a")).isEqualTo("load 2");
    assertThat(cache.get("a")).isEqualTo("load 2");
  }

  @Test
  void aLoadOverlappingAChangeOfAnotherTenantIsKeptUnlessTheyShareAStripe() {
    String other = otherTenant(t -> TenantCache.stripe(t) != TenantCache.stripe("a"));
    String sameStripe = otherTenant(t -> TenantCache.stripe(t) == TenantCache.stripe("a"));
    String[] changedDuringLoad = {other};
    Function<String, String> loader =
        t -> {
          int n = loads.incrementAndGet();
          if (changedDuringLoad[0] != null) {
            changes.changed(changedDuringLoad[0]);
          }
          return "load " + n;
        };
    TenantCache<String> cache = changes.cache(loader);

    assertThat(cache.get("a")).isEqualTo("load 1");
    assertThat(cache.peek("a")).as("another stripe's change costs nothing").isEqualTo("load 1");

    changes.changed("a");
    changedDuringLoad[0] = sameStripe;
    assertThat(cache.get("a")).isEqualTo("load 2");
    assertThat(cache.peek("a")).as("the stripe's count moved: kept only when sure").isNull();
    changedDuringLoad[0] = null;
    assertThat(cache.get("a")).isEqualTo("load 3");
    assertThat(cache.get("a")).isEqualTo("load 3");
  }

  private static String otherTenant(java.util.function.Predicate<String> wanted) {
    for (int i = 0; i < 100_000; i++) {
      if (wanted.test("t" + i)) {
        return "t" + i;
      }
    }
    throw new AssertionError("no tenant name found in the stripe wanted");
  }
}
