package dev.controlplane.grpc;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.metadata.model.MetadataUpdate;
import dev.controlplane.metadata.watch.WatchSink;
import io.grpc.stub.ServerCallStreamObserver;

/**
 * A watch delivered over a gRPC server stream. Synchronized because the hub may close a watch (a
 * laggard cut off, a shutdown) while the watcher's own task is sending.
 */
final class GrpcWatchSink implements WatchSink {

  private final ServerCallStreamObserver<dev.controlplane.proto.v1.MetadataUpdate> call;
  private boolean closed;

  GrpcWatchSink(ServerCallStreamObserver<dev.controlplane.proto.v1.MetadataUpdate> call) {
    this.call = call;
  }

  @Override
  public boolean ready() {
    return call.isReady() && !call.isCancelled();
  }

  @Override
  public synchronized void send(MetadataUpdate update) {
    if (!closed) {
      call.onNext(ProtoMapper.update(update));
    }
  }

  @Override
  public synchronized void progress(long version) {
    if (!closed) {
      call.onNext(
          dev.controlplane.proto.v1.MetadataUpdate.newBuilder().setVersion(version).build());
    }
  }

  @Override
  public synchronized void close(ControlPlaneException reason) {
    if (!closed) {
      closed = true;
      call.onError(GrpcStatus.of(reason));
    }
  }
}
