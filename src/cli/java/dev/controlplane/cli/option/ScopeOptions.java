package dev.controlplane.cli.option;

import picocli.CommandLine.Option;

/** {@code --tenant} and {@code --namespace}: where a tenant-scoped command works. */
public final class ScopeOptions {

  @Option(
      names = {"-t", "--tenant"},
      paramLabel = "TENANT",
      description = "The tenant (default: CPCTL_TENANT, else the context's tenant).")
  public String tenant;

  @Option(
      names = {"-n", "--namespace"},
      paramLabel = "NAMESPACE",
      description = "The namespace.")
  public String namespace;
}
