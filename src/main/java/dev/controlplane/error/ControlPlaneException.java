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

  /** At most this many field errors are listed; the detail gives the total. */
  public static final int MAX_LISTED_ERRORS = 20;

  public static ControlPlaneException validation(List<FieldError> errors) {
    // A body of 10,000 unknown fields must not get an answer ten times its size.
    List<FieldError> listed =
        errors.stream().limit(MAX_LISTED_ERRORS).map(ControlPlaneException::shortened).toList();
    String detail =
        errors.size() == 1
            ? listed.get(0).field() + ": " + listed.get(0).message()
            : errors.size() + " fields are invalid";
    if (errors.size() > MAX_LISTED_ERRORS) {
      detail += "; the first " + MAX_LISTED_ERRORS + " are listed";
    }
    return new ControlPlaneException(ErrorCode.VALIDATION_FAILED, detail, listed, null, null);
  }

  /** A field path as long as the field name a client sent is cut to a readable length. */
  private static FieldError shortened(FieldError error) {
    String field = error.field();
    return field == null || field.length() <= MAX_FIELD_PATH
        ? error
        : new FieldError(field.substring(0, MAX_FIELD_PATH) + "...", error.message());
  }

  private static final int MAX_FIELD_PATH = 200;

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
