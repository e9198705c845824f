package dev.controlplane.cli.apply;

import dev.controlplane.cli.CliException;
import dev.controlplane.cli.ExitCodes;
import dev.controlplane.cli.client.NotServedException;
import dev.controlplane.cli.resource.ResourceRef;
import java.util.ArrayList;
import java.util.List;

/**
 * What an apply that stopped on a failure to reach the servers knows about the level it stopped in:
 * which objects may or may not have been written, and how many were not written for sure. The
 * difference decides what a re-run may assume.
 */
final class Outage {

  private final List<String> unknown = new ArrayList<>();
  private int notAttempted;

  /** An object that failed with {@code e}. */
  void failed(ResourceRef ref, CliException e) {
    if (changedNothing(e)) {
      notAttempted++;
    } else {
      unknown.add(ref.display());
    }
  }

  /** An object that was not sent because the run was already stopping. */
  void notSent() {
    notAttempted++;
  }

  /**
   * The error that ends the run, led by {@code cause}; {@code listed} objects were reported, of
   * {@code total}, and {@code later} belong to levels that never started.
   */
  CliException end(CliException cause, int listed, int total, int later) {
    String unknownPart =
        unknown.size() + " whose outcome is unknown" + (unknown.isEmpty() ? "" : ": " + names());
    return new CliException(
        cause.exitCode(),
        cause.getMessage()
            + " ("
            + listed
            + " of "
            + total
            + " objects applied as listed above; "
            + unknownPart
            + "; "
            + (notAttempted + later)
            + " not attempted)",
        cause);
  }

  private String names() {
    return String.join(", ", unknown);
  }

  /**
   * Failures that happen before anything is written: no server served the request (none could be
   * reached, or each refused it unwritten), or cpctl's own configuration stopped it before sending.
   * Anything else (a write without an answer, an interrupt, a gRPC failure) may follow a stored
   * write.
   */
  private static boolean changedNothing(CliException e) {
    return e instanceof NotServedException
        || e.exitCode() == ExitCodes.CONFIG
        || e.exitCode() == ExitCodes.USAGE;
  }
}
