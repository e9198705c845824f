package dev.controlplane.cli.client;

import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.Optional;

/**
 * What a failed gRPC call says about where its request went: whether a follower refused it, naming
 * the leader, and whether it certainly wrote nothing, so that a write may be sent to another node.
 */
final class GrpcFailures {

  /** The leader's gRPC {@code host:port}, or its node id when the follower knows no address. */
  private static final Metadata.Key<String> LEADER =
      Metadata.Key.of("x-leader", Metadata.ASCII_STRING_MARSHALLER);

  /** The leader's node id, sent with every not-leader refusal that names a leader. */
  private static final Metadata.Key<String> LEADER_ID =
      Metadata.Key.of("x-leader-id", Metadata.ASCII_STRING_MARSHALLER);

  private GrpcFailures() {}

  /** The {@code x-leader} trailer of a follower's refusal, as sent. */
  static Optional<String> leaderNamed(StatusRuntimeException e) {
    if (e.getStatus().getCode() != Status.Code.UNAVAILABLE || e.getTrailers() == null) {
      return Optional.empty();
    }
    return Optional.ofNullable(e.getTrailers().get(LEADER));
  }

  /**
   * Nothing was written: a follower refused the write (it names a leader), or no connection was
   * made, so the request never left this client. Anything else that is {@code UNAVAILABLE} may have
   * reached a node that stored it (docs/api.md: "may or may not be stored").
   */
  static boolean certainlyNotWritten(StatusRuntimeException e) {
    if (e.getStatus().getCode() != Status.Code.UNAVAILABLE) {
      return false;
    }
    Metadata trailers = e.getTrailers();
    if (trailers != null && (trailers.containsKey(LEADER) || trailers.containsKey(LEADER_ID))) {
      return true;
    }
    // gRPC, like HTTP, sends a request only over a connection whose TLS handshake has completed.
    return Attempt.saysNothingWritten(e.getStatus().getDescription())
        || Attempt.neverSent(e.getStatus().getCause());
  }

  /** The status as one line: code, description and, for an unreachable node, why. */
  static String describe(Status status) {
    String description = status.getDescription();
    String text = status.getCode() + (description == null ? "" : ": " + description);
    if (status.getCode() == Status.Code.UNAVAILABLE && status.getCause() != null) {
      text += " (" + status.getCause().getMessage() + ")";
    }
    return text;
  }
}
