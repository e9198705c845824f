package dev.controlplane.error;

import java.util.List;
import java.util.Optional;

/**
 * A failure the caller can act on. The message is safe to show to a client: it never carries SQL,
 * stack traces or secrets.
 */
public class ControlPlaneException extends RuntimeException {

  private final ErrorCode code;
  private final List<FieldError> fieldErrors;
  private final LeaderHint leaderHint;

  public ControlPlaneException(ErrorCode code, String message) {
    this(code, message, List.of(), null, null);
  }

  public ControlPlaneException(ErrorCode code, String message, Throwable cause) {
    this(code, message, List.of(), null, cause);
  }

  protected ControlPlaneException(
      ErrorCode code,
      String message,
      List<FieldError> fieldErrors,
      LeaderHint leaderHint,
      Throwable cause) {
    super(message, cause);
    this.code = code;
    this.fieldErrors = List.copyOf(fieldErrors);
    this.leaderHint = leaderHint;
  }

  public static ControlPlaneException validation(List<FieldError> errors) {
    String detail =
        errors.size() == 1
            ? errors.get(0).field() + ": " + errors.get(0).message()
            : errors.size() + " fields are invalid";
    return new ControlPlaneException(ErrorCode.VALIDATION_FAILED, detail, errors, null, null);
  }

  public static ControlPlaneException validation(String field, String message) {
    return validation(List.of(new FieldError(field, message)));
  }

  public static ControlPlaneException notFound(String message) {
    return new ControlPlaneException(ErrorCode.NOT_FOUND, message);
  }

  public static ControlPlaneException conflict(String message) {
    return new ControlPlaneException(ErrorCode.CONFLICT, message);
  }

  /**
   * This node cannot write; {@code leader} names the node that can, when one is known (else null).
   */
  public static ControlPlaneException notLeader(String message, LeaderHint leader) {
    return new ControlPlaneException(ErrorCode.NOT_LEADER, message, List.of(), leader, null);
  }

  public static ControlPlaneException unavailable(String message, Throwable cause) {
    return new ControlPlaneException(ErrorCode.UNAVAILABLE, message, cause);
  }

  public ErrorCode code() {
    return code;
  }

  public List<FieldError> fieldErrors() {
    return fieldErrors;
  }

  public Optional<LeaderHint> leaderHint() {
    return Optional.ofNullable(leaderHint);
  }

  /** One invalid field: a dotted path such as {@code spec.retention.time} and what is wrong. */
  public record FieldError(String field, String message) {}
}
