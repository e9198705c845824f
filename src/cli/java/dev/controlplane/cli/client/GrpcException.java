package dev.controlplane.cli.client;

import dev.controlplane.cli.CliException;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;

/** A gRPC call failed with a status (other than a node being unavailable, which fails over). */
public final class GrpcException extends CliException {

  private final transient Status status;

  GrpcException(int exitCode, String message, StatusRuntimeException cause) {
    super(exitCode, message, cause);
    this.status = cause.getStatus();
  }

  public Status status() {
    return status;
  }
}
