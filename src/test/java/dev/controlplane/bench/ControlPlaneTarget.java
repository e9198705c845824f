package dev.controlplane.bench;

import dev.controlplane.it.support.Grpc;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.TestDatabase;
import dev.controlplane.proto.v1.MetadataUpdate;
import dev.controlplane.proto.v1.WatchUpdatesRequest;
import io.grpc.Context;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.LongConsumer;

/**
 * The control plane written with {@code PUT /v1/tenants/bench/namespaces/…} (its write API) and
 * watched with {@code WatchUpdates} over the same grpc-java as etcd's watchers (10 channels).
 */
final class ControlPlaneTarget implements Target {

  private final Http http;
  private final String dbUrl;
  private final List<Grpc> channels = new ArrayList<>();

  ControlPlaneTarget(int httpPort, int grpcPort, String dbUrl, int channelCount) {
    this.http = new Http(httpPort, SharedServer.OPERATOR_TOKEN);
    this.dbUrl = dbUrl;
    for (int i = 0; i < channelCount; i++) {
      channels.add(new Grpc(grpcPort, SharedServer.BROKER_TOKEN));
    }
    http.put("/v1/tenants/bench", Http.tenant("bench", "benchmark"));
  }

  /** What one write carries: a namespace document of the benchmark (~200 bytes). */
  static String sampleDocument() {
    return Http.namespace("bench", "w0-0", "written by writer 0, sequence 0");
  }

  @Override
  public Optional<PipelineCounters> pipeline() {
    return Optional.of(PipelineCounters.read(http));
  }

  @Override
  public String name() {
    return "control plane";
  }

  @Override
  public long write(int writer, int sequence) {
    String ns = "w" + writer + "-" + (sequence % 100);
    Http.Reply reply =
        http.put(
            "/v1/tenants/bench/namespaces/" + ns,
            Http.namespace("bench", ns, "written by writer " + writer + ", sequence " + sequence));
    if (reply.status() >= 300) {
      throw new IllegalStateException(reply.body());
    }
    return reply.version();
  }

  @Override
  public long head() throws Exception {
    return TestDatabase.queryLong(dbUrl, "SELECT metadata_version FROM cluster_state");
  }

  @Override
  public AutoCloseable watch(int index, long fromVersion, LongConsumer onUpdate) {
    return watch(channels.get(index % channels.size()), fromVersion, onUpdate);
  }

  /** A {@code WatchUpdates} stream from {@code fromVersion}; closing it cancels the call. */
  static AutoCloseable watch(Grpc channel, long fromVersion, LongConsumer onUpdate) {
    Context.CancellableContext context = Context.current().withCancellation();
    context.run(
        () ->
            channel
                .metadataAsync()
                .watchUpdates(
                    WatchUpdatesRequest.newBuilder().setFromVersion(fromVersion).build(),
                    new StreamObserver<>() {
                      @Override
                      public void onNext(MetadataUpdate u) {
                        if (u.getPayloadCase() != MetadataUpdate.PayloadCase.PAYLOAD_NOT_SET) {
                          onUpdate.accept(u.getVersion());
                        }
                      }

                      @Override
                      public void onError(Throwable t) {}

                      @Override
                      public void onCompleted() {}
                    }));
    return () -> context.cancel(null);
  }

  @Override
  public void close() {
    channels.forEach(Grpc::close);
  }
}
