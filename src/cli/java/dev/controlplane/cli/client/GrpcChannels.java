package dev.controlplane.cli.client;

import dev.controlplane.cli.CliException;
import dev.controlplane.cli.config.Target;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;

/**
 * One channel per node, opened on first use with the context's TLS settings. A file of those
 * settings that cannot be used is a configuration error (exit 3) naming the file and the setting,
 * as over HTTP: Netty's own exceptions name neither.
 */
final class GrpcChannels implements AutoCloseable {

  private final Optional<Path> caFile;
  private final Optional<Target.ClientCertificate> clientCertificate;
  private final Map<GrpcAddress, ManagedChannel> channels = new ConcurrentHashMap<>();

  GrpcChannels(Optional<Path> caFile, Optional<Target.ClientCertificate> clientCertificate) {
    this.caFile = caFile;
    this.clientCertificate = clientCertificate;
  }

  ManagedChannel channel(GrpcAddress address) {
    return channels.computeIfAbsent(address, this::open);
  }

  private ManagedChannel open(GrpcAddress address) {
    NettyChannelBuilder builder =
        NettyChannelBuilder.forAddress(address.host(), address.port())
            .keepAliveTime(30, TimeUnit.SECONDS)
            // A cluster-wide rebalance plan of tens of thousands of moves is one message.
            .maxInboundMessageSize(64 * 1024 * 1024);
    if (!address.tls()) {
      if (clientCertificate.isPresent()) {
        throw CliException.config(
            "gRPC server "
                + address
                + " is plaintext, so the client certificate cannot be presented: give it as"
                + " https://"
                + address.hostPort());
      }
      return builder.usePlaintext().build();
    }
    return builder.sslContext(ssl(address)).build();
  }

  private SslContext ssl(GrpcAddress address) {
    SslContextBuilder ssl = GrpcSslContexts.forClient();
    caFile.ifPresent(ca -> trusting(ssl, ca));
    clientCertificate.ifPresent(c -> presenting(ssl, c));
    try {
      return ssl.build();
    } catch (SSLException | IllegalArgumentException e) {
      throw CliException.config(
          "cannot set up TLS for "
              + address
              + " with "
              + caFile.map(ca -> "ca-file " + ca).orElse("the JDK's trusted CAs")
              + clientCertificate.map(c -> ", client-cert " + c.cert()).orElse("")
              + ": "
              + reason(e));
    }
  }

  private static void trusting(SslContextBuilder ssl, Path ca) {
    try {
      ssl.trustManager(ca.toFile());
    } catch (IllegalArgumentException e) {
      // Netty reads the file here: missing, unreadable, or without a PEM certificate.
      throw Tls.unusableCaFile(ca, reason(e));
    }
  }

  private static void presenting(SslContextBuilder ssl, Target.ClientCertificate c) {
    try {
      ssl.keyManager(c.cert().toFile(), c.key().toFile());
    } catch (IllegalArgumentException e) {
      // Netty reads both files here: missing, unreadable, not PEM, or a key that is not PKCS#8.
      throw CliException.config(
          "cannot use the client certificate "
              + c.cert()
              + " with the key "
              + c.key()
              + " (client-cert and client-key, or CPCTL_CLIENT_CERT and CPCTL_CLIENT_KEY; PEM,"
              + " the key PKCS#8): "
              + reason(e));
    }
  }

  /** Netty wraps the reader's exception, whose message says what is wrong with the file. */
  private static String reason(Exception e) {
    Throwable cause = e.getCause() != null && e.getCause().getMessage() != null ? e.getCause() : e;
    return cause.getMessage() != null ? cause.getMessage() : cause.getClass().getSimpleName();
  }

  @Override
  public void close() {
    channels.values().forEach(ManagedChannel::shutdownNow);
    for (ManagedChannel channel : channels.values()) {
      try {
        channel.awaitTermination(2, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
