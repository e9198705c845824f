package dev.controlplane.cli.client;

import dev.controlplane.cli.CliException;
import dev.controlplane.cli.ExitCodes;
import dev.controlplane.cli.config.Target;
import dev.controlplane.proto.v1.AdminServiceGrpc;
import dev.controlplane.proto.v1.MetadataServiceGrpc;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * gRPC calls to the context's nodes. A call goes to the node that answered last. A follower's
 * refusal of a write ({@code UNAVAILABLE} with the {@code x-leader} trailer) is retried once on the
 * leader it names, which then serves the rest of the run; another {@code UNAVAILABLE} moves a call
 * that changes nothing to the next node. A write moves only when it certainly wrote nothing: its
 * outcome is otherwise unknown, and sending it again could apply it twice. Any other status is the
 * answer.
 */
public final class GrpcClient implements AutoCloseable {

  /** What a call does, which decides whether it may be sent to another node after a failure. */
  public enum Effect {
    /** Changes nothing (a read, or a dry run): any node may be asked again. */
    NONE,
    /** Changes state: sent again only when the node it went to certainly wrote nothing. */
    WRITE
  }

  private static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

  private final List<GrpcAddress> addresses;
  private final GrpcChannels channels;
  private final Credentials credentials;
  private final java.time.Duration deadline;
  private volatile GrpcAddress current;

  public GrpcClient(Target target, Credentials credentials) {
    this.addresses = target.grpcServers().stream().map(GrpcAddress::configured).toList();
    this.channels = new GrpcChannels(target.caFile(), target.clientCertificate());
    this.credentials = credentials;
    this.deadline = target.requestTimeout();
    this.current = addresses.get(0);
  }

  /** AdminService, authenticated for {@code tenant} (null: the context's). */
  public <T> T admin(
      String tenant, Effect effect, Function<AdminServiceGrpc.AdminServiceBlockingStub, T> call) {
    String bearer = credentials.bearer(tenant);
    return withFailover(
        effect,
        ch ->
            call.apply(
                AdminServiceGrpc.newBlockingStub(authed(ch, bearer))
                    .withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS)),
        GrpcClient::failure);
  }

  /**
   * A read of MetadataService (a snapshot, the head of a watch), which must have arrived, every
   * chunk, within the request timeout. {@code call} runs again, from the start, on the next node
   * when one is unavailable.
   */
  public <T> T readMetadata(Function<MetadataServiceGrpc.MetadataServiceBlockingStub, T> call) {
    Optional<String> bearer = credentials.metadataBearer();
    return withFailover(
        Effect.NONE,
        ch ->
            call.apply(
                MetadataServiceGrpc.newBlockingStub(bearer.map(b -> authed(ch, b)).orElse(ch))
                    .withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS)),
        GrpcClient::metadataFailure);
  }

  /** A MetadataService stub on the current node, with the broker credential when configured. */
  public MetadataServiceGrpc.MetadataServiceStub metadata() {
    return MetadataServiceGrpc.newStub(metadataChannel());
  }

  /** For a watch, which runs until it is stopped: no deadline. */
  public MetadataServiceGrpc.MetadataServiceBlockingStub watchBlocking() {
    return MetadataServiceGrpc.newBlockingStub(metadataChannel());
  }

  private Channel metadataChannel() {
    Channel channel = channels.channel(current);
    return credentials.metadataBearer().map(bearer -> authed(channel, bearer)).orElse(channel);
  }

  /** Moves to the next node (after a broken watch), and returns its address. */
  public String nextNode() {
    int i = addresses.indexOf(current);
    current = addresses.get((i + 1) % addresses.size());
    return current.toString();
  }

  private <T> T withFailover(
      Effect effect,
      Function<Channel, T> call,
      Function<StatusRuntimeException, CliException> answer) {
    List<String> failures = new ArrayList<>();
    Set<GrpcAddress> tried = new HashSet<>();
    for (GrpcAddress address : order()) {
      if (!tried.add(address)) {
        continue;
      }
      GrpcAddress at = address;
      try {
        return on(at, call);
      } catch (StatusRuntimeException e) {
        failures.add(at + ": " + GrpcFailures.describe(e.getStatus()));
        StatusRuntimeException last = e;
        // A trailer that is no host:port (the follower knows only the leader's id) is not
        // followed: the next configured node may know more. Nor is a node already asked.
        Optional<GrpcAddress> leader = GrpcFailures.leaderNamed(e).flatMap(at::leader);
        if (leader.isPresent() && tried.add(leader.get())) {
          at = leader.get();
          try {
            return on(at, call);
          } catch (StatusRuntimeException again) {
            failures.add(at + ": " + GrpcFailures.describe(again.getStatus()));
            last = again;
          }
        }
        if (!mayMove(last, effect)) {
          throw stopped(at, last, effect, answer);
        }
      }
    }
    throw new CliException(
        ExitCodes.UNREACHABLE, "no node could serve the request: " + String.join("; ", failures));
  }

  private <T> T on(GrpcAddress address, Function<Channel, T> call) {
    T result = call.apply(channels.channel(address));
    current = address;
    return result;
  }

  private List<GrpcAddress> order() {
    List<GrpcAddress> order = new ArrayList<>();
    order.add(current);
    addresses.stream().filter(a -> !a.equals(current)).forEach(order::add);
    return order;
  }

  private static boolean mayMove(StatusRuntimeException e, Effect effect) {
    if (e.getStatus().getCode() != Status.Code.UNAVAILABLE) {
      return false;
    }
    return effect == Effect.NONE || GrpcFailures.certainlyNotWritten(e);
  }

  /**
   * The end of a call that may not move on. A write that may have reached a node has an unknown
   * outcome: that ends the command with exit 4, as a request without an answer does over HTTP (and
   * {@code apply} counts it as unknown), not as a refusal.
   */
  private static CliException stopped(
      GrpcAddress at,
      StatusRuntimeException e,
      Effect effect,
      Function<StatusRuntimeException, CliException> answer) {
    Status.Code code = e.getStatus().getCode();
    if (effect == Effect.WRITE
        && (code == Status.Code.UNAVAILABLE || code == Status.Code.DEADLINE_EXCEEDED)) {
      return new CliException(
          ExitCodes.UNREACHABLE,
          at
              + ": "
              + GrpcFailures.describe(e.getStatus())
              + " (not sent to another node, as this one may have stored it: unless it says"
              + " nothing was written, the write's outcome is unknown; read before retrying)",
          e);
    }
    return answer.apply(e);
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
    return new GrpcException(exit, GrpcFailures.describe(e.getStatus()), e);
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

  private static Channel authed(Channel channel, String bearer) {
    Metadata headers = new Metadata();
    headers.put(AUTHORIZATION, "Bearer " + bearer);
    return ClientInterceptors.intercept(
        channel, MetadataUtils.newAttachHeadersInterceptor(headers));
  }

  @Override
  public void close() {
    channels.close();
  }
}
