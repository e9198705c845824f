package dev.controlplane.it.support;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** Concurrent writers released together, for tests of what the write pipeline does with them. */
public final class Writers {

  /** One writer's work; {@code writer} numbers it from 0. */
  @FunctionalInterface
  public interface Task {
    void run(int writer) throws Exception;
  }

  private Writers() {}

  /** Runs {@code task} on {@code count} threads released together; rethrows any failure. */
  public static void runConcurrently(int count, Task task) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(count);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<?>> futures = new ArrayList<>();
    for (int w = 0; w < count; w++) {
      int writer = w;
      futures.add(
          pool.submit(
              () -> {
                go.await();
                task.run(writer);
                return null;
              }));
    }
    go.countDown();
    try {
      for (Future<?> f : futures) {
        f.get(5, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
