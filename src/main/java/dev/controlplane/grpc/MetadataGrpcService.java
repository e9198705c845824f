package dev.controlplane.grpc;

import dev.controlplane.metadata.snapshot.MetadataImage;
import dev.controlplane.metadata.snapshot.SnapshotService;
import dev.controlplane.metadata.watch.Watch;
import dev.controlplane.metadata.watch.WatchHub;
import dev.controlplane.proto.v1.GetSnapshotRequest;
import dev.controlplane.proto.v1.GetSnapshotResponse;
import dev.controlplane.proto.v1.MetadataServiceGrpc;
import dev.controlplane.proto.v1.WatchUpdatesRequest;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/** GetSnapshot (streamed in chunks) and WatchUpdates. */
final class MetadataGrpcService extends MetadataServiceGrpc.MetadataServiceImplBase {

  private final SnapshotService snapshots;
  private final WatchHub hub;
  private final int chunkBytes;

  MetadataGrpcService(SnapshotService snapshots, WatchHub hub, int chunkBytes) {
    this.snapshots = snapshots;
    this.hub = hub;
    this.chunkBytes = chunkBytes;
  }

  @Override
  public void getSnapshot(GetSnapshotRequest request, StreamObserver<GetSnapshotResponse> out) {
    MetadataImage image;
    try {
      image = snapshots.snapshotAt(request.getVersion());
    } catch (RuntimeException e) {
      out.onError(GrpcStatus.of(e));
      return;
    }
    // Chunks are built as the client's flow-control window opens, not all at once: a slow client
    // of a large cluster costs one chunk of memory, not the whole snapshot.
    ServerCallStreamObserver<GetSnapshotResponse> call =
        (ServerCallStreamObserver<GetSnapshotResponse>) out;
    SnapshotChunks chunks = new SnapshotChunks(image, chunkBytes);
    AtomicBoolean completed = new AtomicBoolean();
    call.setOnCancelHandler(() -> completed.set(true));
    call.setOnReadyHandler(
        () -> {
          while (!completed.get() && call.isReady() && chunks.hasNext()) {
            call.onNext(chunks.next());
          }
          if (!chunks.hasNext() && completed.compareAndSet(false, true)) {
            call.onCompleted();
          }
        });
  }

  @Override
  public void watchUpdates(
      WatchUpdatesRequest request, StreamObserver<dev.controlplane.proto.v1.MetadataUpdate> out) {
    var call = (ServerCallStreamObserver<dev.controlplane.proto.v1.MetadataUpdate>) out;
    AtomicReference<Watch> watch = new AtomicReference<>();
    // Handlers must be in place before the first message is sent, hence before subscribing.
    call.setOnCancelHandler(
        () -> {
          Watch w = watch.get();
          if (w != null) {
            w.cancel();
          }
        });
    call.setOnReadyHandler(
        () -> {
          Watch w = watch.get();
          if (w != null) {
            w.wake();
          }
        });
    try {
      watch.set(
          hub.subscribe(
              request.getFromVersion(), new GrpcWatchSink(call, TransportThread.EVENT_LOOP.get())));
    } catch (RuntimeException e) {
      out.onError(GrpcStatus.of(e));
      return;
    }
    if (call.isCancelled()) {
      watch.get().cancel();
    }
  }
}
