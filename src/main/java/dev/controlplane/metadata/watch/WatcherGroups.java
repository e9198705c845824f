package dev.controlplane.metadata.watch;

import dev.controlplane.error.ControlPlaneException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * The open watchers, by the thread their deliveries from memory run on (each connection's event
 * loop): a commit wakes each group with one task instead of one hand-off per watcher.
 */
final class WatcherGroups {

  private final Map<Executor, Set<Watcher>> byThread = new ConcurrentHashMap<>();

  void add(Watcher watcher) {
    byThread
        .computeIfAbsent(watcher.deliveryThread(), t -> ConcurrentHashMap.newKeySet())
        .add(watcher);
  }

  void remove(Watcher watcher) {
    Set<Watcher> group = byThread.get(watcher.deliveryThread());
    if (group != null) {
      group.remove(watcher);
    }
  }

  int count() {
    return byThread.values().stream().mapToInt(Set::size).sum();
  }

  Stream<Watcher> all() {
    return byThread.values().stream().flatMap(Set::stream);
  }

  /** Closes each watcher {@code which} selects, with the error {@code why} gives it. */
  void close(Predicate<Watcher> which, Function<Watcher, ControlPlaneException> why) {
    all().filter(which).toList().forEach(w -> w.close(why.apply(w)));
  }

  /**
   * Wakes every watcher: each group with one task on its own thread; those whose thread is {@code
   * logReaders} (no event loop of their own) one by one, so that they spread over its threads.
   */
  void wakeAll(Executor logReaders) {
    byThread.forEach(
        (thread, group) -> {
          if (group.isEmpty()) {
            return;
          }
          if (thread == logReaders) {
            group.forEach(Watcher::wake);
            return;
          }
          try {
            thread.execute(() -> group.forEach(Watcher::drainHere));
          } catch (RuntimeException rejected) {
            group.forEach(Watcher::wake); // a closed loop: each watcher finds out and closes
          }
        });
  }
}
