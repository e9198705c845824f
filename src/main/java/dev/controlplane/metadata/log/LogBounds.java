package dev.controlplane.metadata.log;

/**
 * The versions the log can serve: every version in {@code [retainedFrom, head]} is present. A
 * snapshot or watch at version {@code v} needs every version after {@code v}, so it is in range
 * when {@code retainedFrom - 1 <= v <= head}.
 */
public record LogBounds(long head, long retainedFrom) {

  public boolean covers(long version) {
    return version >= retainedFrom - 1 && version <= head;
  }

  public long oldestServable() {
    return retainedFrom - 1;
  }

  /** The OUT_OF_RANGE failure for a version outside these bounds (snapshots and watches). */
  public dev.controlplane.error.ControlPlaneException outOfRange(long version) {
    String message =
        version > head
            ? "version " + version + " is ahead of the latest version " + head
            : "version "
                + version
                + " is older than the retained history (oldest servable version "
                + oldestServable()
                + "); take a new snapshot";
    return new dev.controlplane.error.ControlPlaneException(
        dev.controlplane.error.ErrorCode.OUT_OF_RANGE, message);
  }
}
