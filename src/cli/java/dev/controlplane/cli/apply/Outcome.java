package dev.controlplane.cli.apply;

/** What happened to one object (the word printed after its name). */
public enum Outcome {
  CREATED("created", false),
  CONFIGURED("configured", false),
  UNCHANGED("unchanged", false),
  DELETED("deleted", false),
  PRUNED("pruned", false),
  /** The object changed since it was read, or since the file's metadata.version: not written. */
  CONFLICT("conflict", true),
  /** The server (or cpctl) refused the document itself: a field, the kind, the identity. */
  INVALID("invalid", true),
  /** Refused for another reason: a missing parent, a quota, no permission, a rule. */
  FAILED("failed", true),
  /** Not attempted because the object it lives in failed. */
  SKIPPED("skipped", true);

  private final String word;
  private final boolean failure;

  Outcome(String word, boolean failure) {
    this.word = word;
    this.failure = failure;
  }

  public String word() {
    return word;
  }

  public boolean isFailure() {
    return failure;
  }
}
