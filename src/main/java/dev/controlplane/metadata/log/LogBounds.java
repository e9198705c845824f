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

  /**
   * The OUT_OF_RANGE failure for a version outside these bounds (snapshots and watches). Versions
   * arrive as protobuf uint64, so one above {@link Long#MAX_VALUE} is negative here: it is compared
   * and printed unsigned, as the client sent it.
   */
  public dev.controlplane.error.ControlPlaneException outOfRange(long version) {
    String sent = Long.toUnsignedString(version);
    String message =
        Long.compareUnsigned(version, head) > 0
            ? "version " + sent + " is ahead of the latest version " + head
            : "version "
                + sent
                + " is older than the retained history (oldest servable version "
                + oldestServable()
                + "); take a new snapshot";
    return new dev.controlplane.error.ControlPlaneException(
        dev.controlplane.error.ErrorCode.OUT_OF_RANGE, message);
  }
}
