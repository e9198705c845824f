package dev.controlplane.grpc;

import com.google.protobuf.Message;
import dev.controlplane.metadata.kind.Kind;
import dev.controlplane.metadata.kind.Kinds;
import dev.controlplane.metadata.model.ResourceKind;
import dev.controlplane.metadata.snapshot.MetadataImage;
import dev.controlplane.metadata.snapshot.SnapshotService;
import dev.controlplane.metadata.watch.Watch;
import dev.controlplane.metadata.watch.WatchHub;
import dev.controlplane.proto.v1.GetSnapshotRequest;
import dev.controlplane.proto.v1.GetSnapshotResponse;
import dev.controlplane.proto.v1.Metadata;
import dev.controlplane.proto.v1.MetadataServiceGrpc;
import dev.controlplane.proto.v1.WatchUpdatesRequest;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
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
    int chunk = 0;
    int size = 0;
    Metadata.Builder part = Metadata.newBuilder();
    for (ResourceKind kind : ResourceKind.values()) {
      Kind<?> mapping = Kinds.of(kind);
      for (var resource : image.ofKind(kind)) {
        Message message = mapping.message(resource);
        int messageSize = message.getSerializedSize() + 6;
        if (size > 0 && size + messageSize > chunkBytes) {
          out.onNext(chunk(image.version(), chunk++, part, false));
          part = Metadata.newBuilder();
          size = 0;
        }
        mapping.addTo(part, message);
        size += messageSize;
      }
    }
    out.onNext(chunk(image.version(), chunk, part, true));
    out.onCompleted();
  }

  private static GetSnapshotResponse chunk(
      long version, int index, Metadata.Builder part, boolean last) {
    return GetSnapshotResponse.newBuilder()
        .setVersion(version)
        .setMetadata(part)
        .setChunk(index)
        .setLast(last)
        .build();
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
      watch.set(hub.subscribe(request.getFromVersion(), new GrpcWatchSink(call)));
    } catch (RuntimeException e) {
      out.onError(GrpcStatus.of(e));
      return;
    }
    if (call.isCancelled()) {
      watch.get().cancel();
    }
  }
}
