package dev.controlplane.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Admission to the RPC threads: refused once the limit waits for busy threads, named, counted, and
 * open again; tasks queued for threads about to take them do not count.
 */
class RpcPoolTest {

  @Test
  void aCallFindingTheLimitWaitingIsRefusedAndCountedUntilTheQueueDrains() throws Exception {
    RpcPool pool = new RpcPool(1, Executors.defaultThreadFactory(), 2);
    AtomicInteger refusals = new AtomicInteger();
    pool.countRefusals(refusals::incrementAndGet);
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch ran = new CountDownLatch(3);
    try {
      pool.executor().execute(block(started, release, ran));
      assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(pool.refusal()).isEmpty();
      pool.executor().execute(ran::countDown);
      assertThat(pool.refusal()).as("one waits, the limit is two").isEmpty();
      pool.admitting().execute(ran::countDown);
      assertThat(pool.waiting()).isEqualTo(2);

      assertThat(pool.refusal())
          .hasValueSatisfying(
              why ->
                  assertThat(why)
                      .contains("1 gRPC threads are busy and 2 tasks wait")
                      .contains("SERVICE_CONTROLPLANE_GRPC_QUEUE_LIMIT (2)"));
      assertThatThrownBy(() -> pool.admitting().execute(() -> {}))
          .isInstanceOfSatisfying(
              ControlPlaneException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.UNAVAILABLE));
      assertThat(refusals).hasValue(2);
      assertThat(pool.waiting()).as("the refused task was not queued").isEqualTo(2);

      release.countDown();
      assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (pool.busy() > 0 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertThat(pool.refusal()).isEmpty();
      assertThat(refusals).hasValue(2);
    } finally {
      pool.executor().shutdownNow();
    }
  }

  @Test
  void tasksQueuedWhileThreadsAreFreeDoNotCountTowardsTheLimit() throws Exception {
    // Threads that have not begun to run stand for idle ones that have not woken up yet.
    CountDownLatch wake = new CountDownLatch(1);
    ThreadFactory slowToWake =
        task ->
            new Thread(
                () -> {
                  awaitQuietly(wake);
                  task.run();
                });
    RpcPool pool = new RpcPool(2, slowToWake, 1);
    CountDownLatch started = new CountDownLatch(2);
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch ran = new CountDownLatch(3);
    try {
      pool.executor().execute(block(started, release, ran));
      pool.executor().execute(block(started, release, ran));
      pool.executor().execute(ran::countDown);
      assertThat(pool.waiting()).isEqualTo(1);
      assertThat(pool.refusal()).as("two threads are free for one task").isEmpty();

      wake.countDown();
      assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(pool.busy()).isEqualTo(2);
      assertThat(pool.refusal()).as("both threads busy, one task waits").isPresent();

      release.countDown();
      assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
    } finally {
      pool.executor().shutdownNow();
    }
  }

  private static Runnable block(
      CountDownLatch started, CountDownLatch release, CountDownLatch ran) {
    return () -> {
      started.countDown();
      awaitQuietly(release);
      ran.countDown();
    };
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
