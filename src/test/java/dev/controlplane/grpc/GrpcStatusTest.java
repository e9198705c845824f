package dev.controlplane.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.error.ControlPlaneException;
import io.grpc.Status;
import java.util.List;
import org.junit.jupiter.api.Test;

class GrpcStatusTest {

  /** HTTP lists every invalid field; a gRPC client got "3 fields are invalid" and nothing else. */
  @Test
  void aStatusOfSeveralInvalidFieldsNamesEachOfThem() {
    var status =
        GrpcStatus.of(
            ControlPlaneException.validation(
                List.of(
                    new ControlPlaneException.FieldError("spec.shards", "must be at least 1"),
                    new ControlPlaneException.FieldError(
                        "spec.retention.time", "is not a duration"))));
    assertThat(status.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(status.getStatus().getDescription())
        .isEqualTo(
            "2 fields are invalid: spec.shards: must be at least 1;"
                + " spec.retention.time: is not a duration");
  }

  /** A snapshot the node cannot rebuild, from a stored update this build cannot read. */
  @Test
  void aFaultOfTheServerIsInternalAndKeepsItsDetailsToTheLog() {
    var status =
        GrpcStatus.of(
            new IllegalStateException(
                "the stored Tenant of version 7 is not one this build reads (spec.tier: is not a"
                    + " known field)"));

    assertThat(status.getStatus().getCode()).isEqualTo(Status.Code.INTERNAL);
    assertThat(status.getStatus().getDescription()).isEqualTo("internal error");
  }
}
