package dev.controlplane.cli.client;

import dev.controlplane.cli.CliException;
import dev.controlplane.cli.ExitCodes;
import dev.controlplane.cli.config.Target;
import dev.controlplane.proto.v1.AdminServiceGrpc;
import dev.controlplane.proto.v1.MetadataServiceGrpc;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import io.grpc.stub.MetadataUtils;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import javax.net.ssl.SSLException;

/**
 * gRPC channels to the context's nodes. A call goes to the node that answered last; on {@code
 * UNAVAILABLE} it is retried once on the leader the node names ({@code x-leader} trailer), else on
 * the next node. Any other status is the answer.
 */
public final class GrpcClient implements AutoCloseable {

  private static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
  private static final Metadata.Key<String> LEADER =
      Metadata.Key.of("x-leader", Metadata.ASCII_STRING_MARSHALLER);

  private final List<String> addresses;
  private final Optional<Path> caFile;
  private final Optional<Target.ClientCertificate> clientCertificate;
  private final Credentials credentials;
  private final java.time.Duration deadline;
  private final Map<String, ManagedChannel> channels = new ConcurrentHashMap<>();
  private volatile String current;

  public GrpcClient(Target target, Credentials credentials) {
    this.addresses = target.grpcServers();
    this.caFile = target.caFile();
    this.clientCertificate = target.clientCertificate();
    this.credentials = credentials;
    this.deadline = target.requestTimeout();
    this.current = addresses.get(0);
  }

  /** AdminService, authenticated for {@code tenant} (null: the context's). */
  public <T> T admin(String tenant, Function<AdminServiceGrpc.AdminServiceBlockingStub, T> call) {
    String bearer = credentials.bearer(tenant);
    return withFailover(
        ch ->
            call.apply(
                AdminServiceGrpc.newBlockingStub(authed(ch, bearer))
                    .withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS)));
  }

  /** A MetadataService stub on the current node, with the broker credential when configured. */
  public MetadataServiceGrpc.MetadataServiceStub metadata() {
    return MetadataServiceGrpc.newStub(metadataChannel());
  }

  /** For a watch, which runs until it is stopped: no deadline. */
  public MetadataServiceGrpc.MetadataServiceBlockingStub watchBlocking() {
    return MetadataServiceGrpc.newBlockingStub(metadataChannel());
  }

  /** For one snapshot: it must have arrived, all its chunks, within the request timeout. */
  public MetadataServiceGrpc.MetadataServiceBlockingStub metadataBlocking() {
    return MetadataServiceGrpc.newBlockingStub(metadataChannel())
        .withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS);
  }

  private Channel metadataChannel() {
    Channel channel = channel(current);
    return credentials.metadataBearer().map(bearer -> authed(channel, bearer)).orElse(channel);
  }

  /** Moves to the next node (after a broken watch), and returns its address. */
  public String nextNode() {
    int i = addresses.indexOf(current);
    current = addresses.get((i + 1) % addresses.size());
    return current;
  }

  private <T> T withFailover(Function<Channel, T> call) {
    List<String> failures = new ArrayList<>();
    List<String> order = new ArrayList<>();
    order.add(current);
    addresses.stream().filter(a -> !a.equals(current)).forEach(order::add);
    for (String address : order) {
      try {
        T result = call.apply(channel(address));
        current = address;
        return result;
      } catch (StatusRuntimeException e) {
        if (e.getStatus().getCode() != Status.Code.UNAVAILABLE) {
          throw failure(e);
        }
        String leader = e.getTrailers() == null ? null : e.getTrailers().get(LEADER);
        if (leader != null && !leader.equals(address)) {
          try {
            T result = call.apply(channel(leader));
            current = leader;
            return result;
          } catch (StatusRuntimeException again) {
            if (again.getStatus().getCode() != Status.Code.UNAVAILABLE) {
              throw failure(again);
            }
          }
        }
        failures.add(address + ": " + describe(e.getStatus()));
      }
    }
    throw new CliException(
        ExitCodes.UNREACHABLE, "no node could serve the request: " + String.join("; ", failures));
  }

  /** A gRPC error as one line, with the exit code its status means. */
  public static GrpcException failure(StatusRuntimeException e) {
    Status.Code code = e.getStatus().getCode();
    int exit =
        switch (code) {
          case UNAVAILABLE, DEADLINE_EXCEEDED -> ExitCodes.UNREACHABLE;
          case CANCELLED -> ExitCodes.INTERRUPTED;
          default -> ExitCodes.FAILED;
        };
    return new GrpcException(exit, describe(e.getStatus()), e);
  }

  /** A failure of snapshot or watch, with a hint when the credential was refused. */
  public static GrpcException metadataFailure(StatusRuntimeException e) {
    GrpcException failure = failure(e);
    if (e.getStatus().getCode() != Status.Code.UNAUTHENTICATED) {
      return failure;
    }
    return new GrpcException(
        failure.exitCode(),
        failure.getMessage()
            + " (snapshot and watch need the broker credential: set CPCTL_BROKER_TOKEN, or"
            + " cpctl config set-context NAME --broker-token-env VAR)",
        e);
  }

  private static String describe(Status status) {
    String description = status.getDescription();
    String text = status.getCode() + (description == null ? "" : ": " + description);
    if (status.getCode() == Status.Code.UNAVAILABLE && status.getCause() != null) {
      text += " (" + status.getCause().getMessage() + ")";
    }
    return text;
  }

  private static Channel authed(Channel channel, String bearer) {
    Metadata headers = new Metadata();
    headers.put(AUTHORIZATION, "Bearer " + bearer);
    return ClientInterceptors.intercept(
        channel, MetadataUtils.newAttachHeadersInterceptor(headers));
  }

  private ManagedChannel channel(String address) {
    return channels.computeIfAbsent(address, this::open);
  }

  private ManagedChannel open(String address) {
    boolean tls = address.startsWith("https://");
    String hostPort = address.replaceFirst("^https?://", "");
    int colon = hostPort.lastIndexOf(':');
    int port;
    try {
      port = Integer.parseInt(hostPort.substring(colon + 1));
    } catch (NumberFormatException e) {
      port = -1;
    }
    if (colon < 1 || port < 1 || port > 65535) {
      throw CliException.config("gRPC server " + address + " must be host:port");
    }
    NettyChannelBuilder builder =
        NettyChannelBuilder.forAddress(hostPort.substring(0, colon), port)
            .keepAliveTime(30, TimeUnit.SECONDS)
            // A cluster-wide rebalance plan of tens of thousands of moves is one message.
            .maxInboundMessageSize(64 * 1024 * 1024);
    if (!tls) {
      if (clientCertificate.isPresent()) {
        throw CliException.config(
            "gRPC server "
                + address
                + " is plaintext, so the client certificate cannot be presented: give it as"
                + " https://"
                + hostPort);
      }
      return builder.usePlaintext().build();
    }
    var ssl = GrpcSslContexts.forClient();
    caFile.ifPresent(ca -> trusting(ssl, ca));
    clientCertificate.ifPresent(c -> presenting(ssl, c));
    try {
      return builder.sslContext(ssl.build()).build();
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
