package dev.controlplane.cli.option;

import picocli.CommandLine.Option;

/** {@code --tenant} alone, for the commands that work on one tenant. */
public final class TenantOption {

  @Option(
      names = {"-t", "--tenant"},
      paramLabel = "TENANT",
      description = "The tenant (default: CPCTL_TENANT, else the context's tenant).")
  public String tenant;
}
