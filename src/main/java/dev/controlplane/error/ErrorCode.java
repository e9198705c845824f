package dev.controlplane.error;

/**
 * The stable error vocabulary. Adapters translate it: HTTP status and problem+json {@code code},
 * gRPC status code. One table, so both APIs say the same thing for the same failure.
 */
public enum ErrorCode {
  VALIDATION_FAILED("validation_failed"),
  INVALID_TOKEN("invalid_token"),
  FORBIDDEN("forbidden"),
  NOT_FOUND("not_found"),
  CONFLICT("conflict"),
  ALREADY_EXISTS("conflict"),
  FAILED_PRECONDITION("conflict"),
  /** An HTTP If-Match / If-None-Match precondition does not hold (412). */
  PRECONDITION_FAILED("precondition_failed"),
  RESOURCE_EXHAUSTED("quota_exceeded"),
  OUT_OF_RANGE("out_of_range"),
  NOT_LEADER("not_leader"),
  UNAVAILABLE("unavailable"),
  PAYLOAD_TOO_LARGE("payload_too_large"),
  RATE_LIMITED("rate_limited");

  private final String problemCode;

  ErrorCode(String problemCode) {
    this.problemCode = problemCode;
  }

  /** The lower_snake_case {@code code} of a problem+json body. */
  public String problemCode() {
    return problemCode;
  }
}
