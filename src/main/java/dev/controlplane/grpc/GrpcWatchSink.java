package dev.controlplane.grpc;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.metadata.model.MetadataUpdate;
import dev.controlplane.metadata.watch.WatchSink;
import io.grpc.stub.ServerCallStreamObserver;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * A watch delivered over a gRPC server stream. Synchronized because the hub may close a watch (a
 * laggard cut off, a shutdown) while the watcher's own task is sending.
 */
final class GrpcWatchSink implements WatchSink {

  private final ServerCallStreamObserver<dev.controlplane.proto.v1.MetadataUpdate> call;
  private final Executor eventLoop;
  private final Supplier<Optional<String>> withdrawn;
  private boolean closed;

  /**
   * {@code eventLoop}: the loop of the call's connection, or null when it is not known; {@code
   * withdrawn}: the call's {@link BrokerCredentialInterceptor#CREDENTIALS_WITHDRAWN}.
   */
  GrpcWatchSink(
      ServerCallStreamObserver<dev.controlplane.proto.v1.MetadataUpdate> call,
      Executor eventLoop,
      Supplier<Optional<String>> withdrawn) {
    this.call = call;
    this.eventLoop = eventLoop;
    this.withdrawn = withdrawn;
  }

  @Override
  public Optional<String> credentialsWithdrawn() {
    return withdrawn.get();
  }

  @Override
  public Executor deliveryExecutor() {
    return eventLoop;
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
