package dev.controlplane.it.support;

import dev.controlplane.proto.v1.MetadataServiceGrpc;
import dev.controlplane.proto.v1.MetadataUpdate;
import dev.controlplane.proto.v1.WatchUpdatesRequest;
import io.grpc.Context;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** An open watch that keeps everything it receives, for assertions. */
public final class WatchCollector implements StreamObserver<MetadataUpdate>, AutoCloseable {

  private final List<MetadataUpdate> updates = new ArrayList<>();
  private final List<Long> progress = new ArrayList<>();
  private final CompletableFuture<Status> closed = new CompletableFuture<>();
  private final Context.CancellableContext context = Context.current().withCancellation();

  public static WatchCollector open(
      MetadataServiceGrpc.MetadataServiceStub stub, long fromVersion) {
    WatchCollector collector = new WatchCollector();
    collector.context.run(
        () ->
            stub.watchUpdates(
                WatchUpdatesRequest.newBuilder().setFromVersion(fromVersion).build(), collector));
    return collector;
  }

  @Override
  public synchronized void onNext(MetadataUpdate update) {
    if (update.getPayloadCase() == MetadataUpdate.PayloadCase.PAYLOAD_NOT_SET) {
      progress.add(update.getVersion());
    } else {
      updates.add(update);
    }
    notifyAll();
  }

  @Override
  public synchronized void onError(Throwable t) {
    closed.complete(Status.fromThrowable(t));
    notifyAll();
  }

  @Override
  public synchronized void onCompleted() {
    closed.complete(Status.OK);
    notifyAll();
  }

  /** Waits until an update with at least {@code version} arrived; false on timeout or close. */
  public synchronized boolean awaitVersion(long version, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (lastVersion() < version && !closed.isDone()) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      wait(Math.max(1, left / 1_000_000));
    }
    return lastVersion() >= version;
  }

  public boolean awaitProgress(Duration timeout) throws InterruptedException {
    return awaitProgressAfter(0, timeout);
  }

  /** Waits for a progress notice beyond the first {@code seen}, while the watch stays open. */
  public synchronized boolean awaitProgressAfter(int seen, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (progress.size() <= seen && !closed.isDone()) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      wait(Math.max(1, left / 1_000_000));
    }
    return progress.size() > seen;
  }

  public synchronized long lastVersion() {
    return updates.isEmpty() ? 0 : updates.get(updates.size() - 1).getVersion();
  }

  public synchronized List<MetadataUpdate> updates() {
    return new ArrayList<>(updates);
  }

  public synchronized List<Long> progressVersions() {
    return new ArrayList<>(progress);
  }

  /** How the watch ended, or "open". */
  public String state() {
    return closed.isDone() ? "closed with " + closed.join() : "open";
  }

  public Status awaitClose(Duration timeout) throws Exception {
    return closed.get(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() {
    context.cancel(null);
  }
}
