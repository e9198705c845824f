package dev.controlplane.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** A command that only groups subcommands ({@code cpctl rbac}); alone it is a usage error. */
public abstract class GroupCommand implements Runnable {

  @Spec protected CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(
        spec.commandLine(),
        "missing subcommand: one of " + String.join(", ", spec.subcommands().keySet()));
  }
}
