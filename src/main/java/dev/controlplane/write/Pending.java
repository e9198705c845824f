package dev.controlplane.write;

import dev.controlplane.audit.Actor;
import dev.controlplane.metadata.log.WriteMode;
import java.util.concurrent.CompletableFuture;

/**
 * A submitted operation waiting for its batch, with the future its caller waits on, the actor who
 * submitted it (for its audit record) and when it was queued ({@link System#nanoTime}).
 */
record Pending<R>(
    Operation<R> op, WriteMode mode, CompletableFuture<R> future, Actor actor, long queuedAt) {

  /** Queued now. */
  Pending(Operation<R> op, WriteMode mode, CompletableFuture<R> future, Actor actor) {
    this(op, mode, future, actor, System.nanoTime());
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
