package dev.controlplane.write;

import dev.controlplane.audit.Actor;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.metadata.log.WriteMode;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A submitted operation waiting for its batch, with the future its caller waits on, the actor who
 * submitted it (for its audit record) and when it was queued ({@link System#nanoTime}).
 *
 * <p>The pipeline {@linkplain #take takes} it before running it, and a caller who stops waiting
 * {@linkplain #abandon abandons} it; only one of the two succeeds. So a caller told that its write
 * did not start is never contradicted by a later commit of it, and a caller whose write was taken
 * knows that its outcome is still to come.
 */
record Pending<R>(
    Operation<R> op,
    WriteMode mode,
    CompletableFuture<R> future,
    Actor actor,
    long queuedAt,
    AtomicInteger claim) {

  private static final int QUEUED = 0;
  private static final int TAKEN = 1;
  private static final int ABANDONED = 2;

  /** Queued now. */
  Pending(Operation<R> op, WriteMode mode, CompletableFuture<R> future, Actor actor) {
    this(op, mode, future, actor, System.nanoTime(), new AtomicInteger(QUEUED));
  }

  /** The pipeline's claim: false when the caller abandoned it first, so it must not run. */
  boolean take() {
    return claim.compareAndSet(QUEUED, TAKEN);
  }

  /** The caller's claim: false when the pipeline took it first, so its outcome is still to come. */
  boolean abandon() {
    return claim.compareAndSet(QUEUED, ABANDONED);
  }

  /**
   * The operations of {@code drained} that the pipeline took, in order; the abandoned ones left.
   */
  static List<Pending<?>> taken(List<Pending<?>> drained) {
    return drained.stream().filter(Pending::take).toList();
  }

  /**
   * Bounds the caller's wait: if the pipeline has not taken the operation within {@code limit}, it
   * is abandoned and its caller told that nothing was written; if it was taken but has no outcome
   * within {@code limit} more, its caller is told that the outcome is unknown. The timers are
   * cancelled when the outcome comes first, so writes do not leave timers behind.
   */
  void limitWait(Duration limit) {
    afterDeadline(
        limit,
        () -> {
          if (abandon()) {
            future.completeExceptionally(
                ControlPlaneException.unavailable(
                    "the write did not start in time and nothing was written; retry", null));
          } else {
            afterDeadline(
                limit,
                () ->
                    future.completeExceptionally(
                        ControlPlaneException.unavailable(
                            "the write started but did not finish in time, so it may or may not"
                                + " be stored; read it before retrying",
                            null)));
          }
        });
  }

  private void afterDeadline(Duration limit, Runnable onExpiry) {
    CompletableFuture<Void> deadline =
        new CompletableFuture<Void>().orTimeout(limit.toNanos(), TimeUnit.NANOSECONDS);
    future.whenComplete((result, error) -> deadline.complete(null));
    deadline.whenComplete(
        (ignored, error) -> {
          if (error instanceof TimeoutException) {
            onExpiry.run();
          }
        });
  }

  @SuppressWarnings("unchecked")
  void complete(Object outcome) {
    if (outcome instanceof Throwable t) {
      future.completeExceptionally(t);
    } else {
      future.complete((R) outcome);
    }
  }
}
