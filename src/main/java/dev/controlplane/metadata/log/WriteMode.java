package dev.controlplane.metadata.log;

/**
 * Whether a write commits, or runs every rule of the real write (locks, preconditions, quotas,
 * placement, database constraints) and then rolls back: Kubernetes' {@code dryRun=All}, so a client
 * sees exactly what would happen without changing anything.
 */
public enum WriteMode {
  COMMIT,
  DRY_RUN;

  /** The HTTP query parameter {@code dryRun}: absent commits, {@code All} is a dry run. */
  public static WriteMode ofDryRunParameter(String dryRun) {
    if (dryRun == null || dryRun.isEmpty()) {
      return COMMIT;
    }
    if (dryRun.equals("All")) {
      return DRY_RUN;
    }
    throw dev.controlplane.error.ControlPlaneException.validation(
        "dryRun", "must be All (the only dry-run mode) or left out");
  }
}
