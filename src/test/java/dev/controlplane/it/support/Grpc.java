package dev.controlplane.it.support;

import dev.controlplane.proto.v1.BrokerServiceGrpc;
import dev.controlplane.proto.v1.MetadataServiceGrpc;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import java.util.concurrent.TimeUnit;

/** gRPC channels to the server under test, with or without the broker credential. */
public final class Grpc implements AutoCloseable {

  private static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

  private final ManagedChannel channel;
  private final io.grpc.Channel authed;

  public Grpc(int port, String token) {
    this(NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build(), token);
  }

  public Grpc(ManagedChannel channel, String token) {
    this.channel = channel;
    if (token == null) {
      this.authed = channel;
    } else {
      Metadata headers = new Metadata();
      headers.put(AUTHORIZATION, "Bearer " + token);
      this.authed =
          ClientInterceptors.intercept(channel, MetadataUtils.newAttachHeadersInterceptor(headers));
    }
  }

  public static Grpc shared() {
    return new Grpc(SharedServer.grpcPort(), SharedServer.BROKER_TOKEN);
  }

  public MetadataServiceGrpc.MetadataServiceBlockingStub metadata() {
    return MetadataServiceGrpc.newBlockingStub(authed);
  }

  public MetadataServiceGrpc.MetadataServiceStub metadataAsync() {
    return MetadataServiceGrpc.newStub(authed);
  }

  public BrokerServiceGrpc.BrokerServiceBlockingStub brokers() {
    return BrokerServiceGrpc.newBlockingStub(authed);
  }

  public io.grpc.Channel channel() {
    return authed;
  }

  public ManagedChannel managedChannel() {
    return channel;
  }

  @Override
  public void close() {
    channel.shutdownNow();
    try {
      channel.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
