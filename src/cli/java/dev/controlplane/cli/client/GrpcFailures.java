package dev.controlplane.cli.client;

import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.Optional;

/** What a failed gRPC call says: whether a follower refused it, naming the leader. */
final class GrpcFailures {

  /** The leader's gRPC {@code host:port}, or its node id when the follower knows no address. */
  private static final Metadata.Key<String> LEADER =
      Metadata.Key.of("x-leader", Metadata.ASCII_STRING_MARSHALLER);

  private GrpcFailures() {}

  /** The {@code x-leader} trailer of a follower's refusal, as sent. */
  static Optional<String> leaderNamed(StatusRuntimeException e) {
    if (e.getStatus().getCode() != Status.Code.UNAVAILABLE || e.getTrailers() == null) {
      return Optional.empty();
    }
    return Optional.ofNullable(e.getTrailers().get(LEADER));
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
