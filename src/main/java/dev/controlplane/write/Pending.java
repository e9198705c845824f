package dev.controlplane.write;

import dev.controlplane.audit.Actor;
import dev.controlplane.metadata.log.WriteMode;
import java.util.concurrent.CompletableFuture;

/**
 * A submitted operation waiting for its batch, with the future its caller waits on and the actor
 * who submitted it (for its audit record).
 */
record Pending<R>(Operation<R> op, WriteMode mode, CompletableFuture<R> future, Actor actor) {

  @SuppressWarnings("unchecked")
  void complete(Object outcome) {
    if (outcome instanceof Throwable t) {
      future.completeExceptionally(t);
    } else {
      future.complete((R) outcome);
    }
  }
}
