package dev.controlplane.bench;

import dev.controlplane.it.support.Grpc;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.proto.v1.AdminServiceGrpc;
import dev.controlplane.proto.v1.CreateStreamRequest;
import dev.controlplane.proto.v1.RegisterBrokerRequest;
import dev.controlplane.proto.v1.RetentionPolicy;
import dev.controlplane.proto.v1.StreamSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;

/**
 * The control plane written over its gRPC write API, the transport etcd is driven over: each write
 * is an {@code AdminService.CreateStream} of a new one-shard stream at replication factor 1 (a
 * stream and its placement, two versioned changes, committed together), on as many channels as
 * etcd's writers get. Watched as {@link ControlPlaneTarget} is: a write is matched to its
 * deliveries by the stream's version, which CreateStream answers.
 */
final class ControlPlaneGrpcWrites implements Target {

  private final List<Grpc> channels = new ArrayList<>();
  private final List<AdminServiceGrpc.AdminServiceBlockingStub> admins = new ArrayList<>();
  private final AtomicLong streams = new AtomicLong();

  private final String tenant;
  private final Http http;
  private final ControlPlaneTarget watched;

  /** Writes in tenant {@code tenant}, which must exist; head and watches from {@code watched}. */
  ControlPlaneGrpcWrites(
      int httpPort, int grpcPort, int channelCount, String tenant, ControlPlaneTarget watched) {
    this.tenant = tenant;
    this.watched = watched;
    this.http = new Http(httpPort, SharedServer.OPERATOR_TOKEN);
    http.put(
        "/v1/tenants/" + tenant + "/namespaces/grpc",
        Http.namespace(tenant, "grpc", "gRPC writes"));
    try (Grpc broker = new Grpc(grpcPort, SharedServer.BROKER_TOKEN)) {
      for (int b = 0; b < 3; b++) {
        broker
            .brokers()
            .registerBroker(
                RegisterBrokerRequest.newBuilder()
                    .setBrokerId("bench-" + b)
                    .setAddress("10.9.0." + b + ":7000")
                    .putMetadata("availability_zone", "z" + b)
                    .build());
      }
    }
    for (int i = 0; i < channelCount; i++) {
      Grpc channel = new Grpc(grpcPort, SharedServer.OPERATOR_TOKEN);
      channels.add(channel);
      admins.add(AdminServiceGrpc.newBlockingStub(channel.channel()));
    }
  }

  @Override
  public Optional<PipelineCounters> pipeline() {
    return Optional.of(PipelineCounters.read(http));
  }

  @Override
  public String name() {
    return "cp over gRPC";
  }

  @Override
  public int updatesPerWrite() {
    return 2;
  }

  @Override
  public long write(int writer, int sequence) {
    return admins
        .get(writer % admins.size())
        .createStream(
            CreateStreamRequest.newBuilder()
                .setTenantId(tenant)
                .setNamespace("grpc")
                .setStream("s" + streams.incrementAndGet())
                .setSpec(
                    StreamSpec.newBuilder()
                        .setShards(1)
                        .setReplicationFactor(1)
                        .setRetention(RetentionPolicy.newBuilder().setTime("7d")))
                .build())
        .getMetadataVersion();
  }

  @Override
  public long head() throws Exception {
    return watched.head();
  }

  @Override
  public AutoCloseable watch(int index, long fromVersion, LongConsumer onUpdate) {
    return watched.watch(index, fromVersion, onUpdate);
  }

  @Override
  public void close() {
    channels.forEach(Grpc::close);
  }
}
