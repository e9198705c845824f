package dev.controlplane.write;

import dev.controlplane.metadata.log.WriteMode;
import java.util.concurrent.CompletableFuture;

/** A submitted operation waiting for its batch, with the future its caller waits on. */
record Pending<R>(Operation<R> op, WriteMode mode, CompletableFuture<R> future) {

  @SuppressWarnings("unchecked")
  void complete(Object outcome) {
    if (outcome instanceof Throwable t) {
      future.completeExceptionally(t);
    } else {
      future.complete((R) outcome);
    }
  }
}
