package dev.controlplane.grpc;

import dev.controlplane.metadata.snapshot.SnapshotService;
import dev.controlplane.metadata.snapshot.SnapshotSlots;
import dev.controlplane.metadata.watch.Watch;
import dev.controlplane.metadata.watch.WatchHub;
import dev.controlplane.proto.v1.GetSnapshotRequest;
import dev.controlplane.proto.v1.GetSnapshotResponse;
import dev.controlplane.proto.v1.MetadataServiceGrpc;
import dev.controlplane.proto.v1.WatchUpdatesRequest;
import io.grpc.BindableService;
import io.grpc.MethodDescriptor;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServiceDescriptor;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/** GetSnapshot (streamed in chunks, a limited number at once) and WatchUpdates. */
final class MetadataGrpcService implements MetadataServiceGrpc.AsyncService, BindableService {

  private final SnapshotService snapshots;
  private final WatchHub hub;
  private final int chunkBytes;
  private final SnapshotSlots slots;
  private final EncodedResources encoded;

  MetadataGrpcService(
      SnapshotService snapshots,
      WatchHub hub,
      int chunkBytes,
      SnapshotSlots slots,
      EncodedResources encoded) {
    this.snapshots = snapshots;
    this.hub = hub;
    this.chunkBytes = chunkBytes;
    this.slots = slots;
    this.encoded = encoded;
  }

  /**
   * The generated binding, except that GetSnapshot sends {@link EncodedChunk}s: the same messages
   * on the wire, written from the resources' kept wire forms instead of built field by field.
   */
  @Override
  public ServerServiceDefinition bindService() {
    ServerServiceDefinition generated = MetadataServiceGrpc.bindService(this);
    MethodDescriptor<GetSnapshotRequest, GetSnapshotResponse> contract =
        MetadataServiceGrpc.getGetSnapshotMethod();
    MethodDescriptor<GetSnapshotRequest, EncodedChunk> getSnapshot =
        contract.toBuilder(contract.getRequestMarshaller(), EncodedChunk.MARSHALLER).build();
    List<ServerMethodDefinition<?, ?>> others =
        generated.getMethods().stream()
            .filter(
                m ->
                    !m.getMethodDescriptor()
                        .getFullMethodName()
                        .equals(contract.getFullMethodName()))
            .toList();
    ServiceDescriptor.Builder service =
        ServiceDescriptor.newBuilder(MetadataServiceGrpc.SERVICE_NAME)
            .setSchemaDescriptor(generated.getServiceDescriptor().getSchemaDescriptor())
            .addMethod(getSnapshot);
    others.forEach(m -> service.addMethod(m.getMethodDescriptor()));
    ServerServiceDefinition.Builder binding = ServerServiceDefinition.builder(service.build());
    others.forEach(binding::addMethod);
    return binding
        .addMethod(getSnapshot, ServerCalls.asyncServerStreamingCall(this::sendSnapshot))
        .build();
  }

  private void sendSnapshot(GetSnapshotRequest request, StreamObserver<EncodedChunk> out) {
    new SnapshotStream(
            (ServerCallStreamObserver<EncodedChunk>) out,
            snapshots,
            request.getVersion(),
            chunkBytes,
            slots,
            encoded)
        .open();
  }

  /**
   * How much a watch may have queued in its transport before it counts as not ready and its sender
   * waits. gRPC's default, 32 KiB, is over a hundred small updates, each held on the heap with its
   * frame while a broker is not reading: 1,000 stalled watches added 37-38 MiB of live heap, and
   * 14-15 MiB with 8 KiB, with the same catch-up time within the runs' spread (docs/benchmarks.md).
   */
  private static final int WATCH_ON_READY_THRESHOLD = 8 * 1024;

  @Override
  public void watchUpdates(
      WatchUpdatesRequest request, StreamObserver<dev.controlplane.proto.v1.MetadataUpdate> out) {
    var call = (ServerCallStreamObserver<dev.controlplane.proto.v1.MetadataUpdate>) out;
    AtomicReference<Watch> watch = new AtomicReference<>();
    call.setOnReadyThreshold(WATCH_ON_READY_THRESHOLD);
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
              request.getFromVersion(),
              new GrpcWatchSink(
                  call,
                  TransportThread.EVENT_LOOP.get(),
                  BrokerCredentialInterceptor.credentialsWithdrawn())));
    } catch (RuntimeException e) {
      out.onError(GrpcStatus.of(e));
      return;
    }
    if (call.isCancelled()) {
      watch.get().cancel();
    }
  }
}
