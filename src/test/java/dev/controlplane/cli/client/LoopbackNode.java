package dev.controlplane.cli.client;

import dev.controlplane.it.support.Certificates;
import io.grpc.BindableService;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.ClientAuth;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;

/**
 * A gRPC server on 127.0.0.1 with the services a test gives it: one node of a cluster as cpctl sees
 * it, answering as the test decides.
 */
public final class LoopbackNode implements AutoCloseable {

  private final Server server;

  private LoopbackNode(NettyServerBuilder builder, BindableService... services) throws IOException {
    for (BindableService service : services) {
      builder.addService(service);
    }
    this.server = builder.build().start();
  }

  public static LoopbackNode plaintext(BindableService... services) throws IOException {
    return new LoopbackNode(builder(), services);
  }

  /** Serving TLS with {@code cert}, asking for (not requiring) a client certificate. */
  public static LoopbackNode tls(Certificates.Pair cert, BindableService... services)
      throws IOException {
    var ssl =
        GrpcSslContexts.forServer(cert.cert().toFile(), cert.key().toFile())
            .clientAuth(ClientAuth.OPTIONAL)
            .build();
    return new LoopbackNode(builder().sslContext(ssl), services);
  }

  private static NettyServerBuilder builder() {
    return NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0));
  }

  /** {@code host:port}, as a node advertises it in the {@code x-leader} trailer. */
  public String hostPort() {
    return "127.0.0.1:" + server.getPort();
  }

  /** An address nothing listens on: connections to it are refused. */
  public static String refusing() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return "127.0.0.1:" + socket.getLocalPort();
    }
  }

  /** A follower's refusal of a write, naming the leader as the control plane does. */
  public static StatusRuntimeException notLeader(String leader, String leaderId) {
    Metadata trailers = new Metadata();
    trailers.put(Metadata.Key.of("x-leader", Metadata.ASCII_STRING_MARSHALLER), leader);
    trailers.put(Metadata.Key.of("x-leader-id", Metadata.ASCII_STRING_MARSHALLER), leaderId);
    return Status.UNAVAILABLE
        .withDescription("this node is not the leader; the leader is " + leaderId)
        .asRuntimeException(trailers);
  }

  @Override
  public void close() throws InterruptedException {
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }
}
