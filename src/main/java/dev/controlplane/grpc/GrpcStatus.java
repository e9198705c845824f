package dev.controlplane.grpc;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.Failures;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Domain failures as gRPC statuses (decisions.md, gRPC API). */
final class GrpcStatus {

  private static final Logger LOG = Logger.getLogger(GrpcStatus.class.getName());

  /** The leader's gRPC address ({@code host:port}), or its node id when the address is unknown. */
  static final Metadata.Key<String> LEADER =
      Metadata.Key.of("x-leader", Metadata.ASCII_STRING_MARSHALLER);

  /** The leader's node id. */
  static final Metadata.Key<String> LEADER_ID =
      Metadata.Key.of("x-leader-id", Metadata.ASCII_STRING_MARSHALLER);

  private GrpcStatus() {}

  static StatusRuntimeException of(Throwable failure) {
    if (failure instanceof StatusRuntimeException already) {
      return already;
    }
    return Failures.classify(failure).map(GrpcStatus::of).orElseGet(() -> internal(failure));
  }

  static StatusRuntimeException of(ControlPlaneException e) {
    Status status =
        switch (e.code()) {
          case VALIDATION_FAILED, PAYLOAD_TOO_LARGE -> Status.INVALID_ARGUMENT;
          case INVALID_TOKEN -> Status.UNAUTHENTICATED;
          case FORBIDDEN -> Status.PERMISSION_DENIED;
          case NOT_FOUND -> Status.NOT_FOUND;
          case ALREADY_EXISTS -> Status.ALREADY_EXISTS;
          case CONFLICT -> Status.FAILED_PRECONDITION;
          case FAILED_PRECONDITION, PRECONDITION_FAILED -> Status.FAILED_PRECONDITION;
          case RESOURCE_EXHAUSTED, RATE_LIMITED -> Status.RESOURCE_EXHAUSTED;
          case OUT_OF_RANGE -> Status.OUT_OF_RANGE;
          case NOT_LEADER, UNAVAILABLE -> Status.UNAVAILABLE;
        };
    Metadata trailers = new Metadata();
    e.leaderHint()
        .ifPresent(
            leader -> {
              trailers.put(
                  LEADER, leader.grpcAddress() != null ? leader.grpcAddress() : leader.nodeId());
              trailers.put(LEADER_ID, leader.nodeId());
            });
    return status.withDescription(description(e)).asRuntimeException(trailers);
  }

  /**
   * The message, and each invalid field when there are several: HTTP lists them in the problem's
   * {@code errors}, and "3 fields are invalid" alone left a client nothing to act on.
   */
  private static String description(ControlPlaneException e) {
    if (e.fieldErrors().size() < 2) {
      return e.getMessage();
    }
    StringBuilder out = new StringBuilder(e.getMessage()).append(": ");
    String separator = "";
    for (ControlPlaneException.FieldError error : e.fieldErrors()) {
      out.append(separator).append(error.field()).append(": ").append(error.message());
      separator = "; ";
    }
    return out.toString();
  }

  private static StatusRuntimeException internal(Throwable failure) {
    LOG.log(Level.SEVERE, "unexpected failure in a gRPC call", failure);
    return Status.INTERNAL.withDescription("internal error").asRuntimeException();
  }
}
