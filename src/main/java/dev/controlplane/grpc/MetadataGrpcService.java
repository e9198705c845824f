package dev.controlplane.grpc;

import dev.controlplane.metadata.snapshot.SnapshotService;
import dev.controlplane.metadata.snapshot.SnapshotSlots;
import dev.controlplane.metadata.watch.Watch;
import dev.controlplane.metadata.watch.WatchHub;
import dev.controlplane.proto.v1.GetSnapshotRequest;
import dev.controlplane.proto.v1.GetSnapshotResponse;
import dev.controlplane.proto.v1.MetadataServiceGrpc;
import dev.controlplane.proto.v1.WatchUpdatesRequest;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.atomic.AtomicReference;

/** GetSnapshot (streamed in chunks, a limited number at once) and WatchUpdates. */
final class MetadataGrpcService extends MetadataServiceGrpc.MetadataServiceImplBase {

  private final SnapshotService snapshots;
  private final WatchHub hub;
  private final int chunkBytes;
  private final SnapshotSlots slots;

  MetadataGrpcService(
      SnapshotService snapshots, WatchHub hub, int chunkBytes, SnapshotSlots slots) {
    this.snapshots = snapshots;
    this.hub = hub;
    this.chunkBytes = chunkBytes;
    this.slots = slots;
  }

  @Override
  public void getSnapshot(GetSnapshotRequest request, StreamObserver<GetSnapshotResponse> out) {
    new SnapshotStream(
            (ServerCallStreamObserver<GetSnapshotResponse>) out,
            snapshots,
            request.getVersion(),
            chunkBytes,
            slots)
        .open();
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
