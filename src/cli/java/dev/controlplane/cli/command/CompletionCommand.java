package dev.controlplane.cli.command;

import dev.controlplane.cli.BaseCommand;
import dev.controlplane.cli.Cpctl;
import dev.controlplane.cli.ExitCodes;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code cpctl completion}: shell completion scripts, generated from the command tree. */
@Command(
    name = "completion",
    header = "Print a bash or zsh completion script.",
    mixinStandardHelpOptions = true,
    description = {
      "Print a completion script for bash or zsh (picocli's AutoComplete; zsh runs it through"
          + " bashcompinit). It completes commands, options, kinds and output formats."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  source <(cpctl completion bash)                 # bash, this shell",
      "  cpctl completion bash > /etc/bash_completion.d/cpctl",
      "  source <(cpctl completion zsh)                  # zsh (~/.zshrc)"
    })
public final class CompletionCommand extends BaseCommand {

  @Parameters(
      index = "0",
      paramLabel = "SHELL",
      description = "bash or zsh.",
      completionCandidates = Shells.class)
  String shell;

  @Override
  protected int execute() {
    if (!shell.equals("bash") && !shell.equals("zsh")) {
      throw dev.controlplane.cli.CliException.usage("SHELL must be bash or zsh");
    }
    String script = AutoComplete.bash("cpctl", Cpctl.commandLine(Cpctl.detached()));
    if (shell.equals("zsh")) {
      script =
          "autoload -U +X compinit && compinit\nautoload -U +X bashcompinit && bashcompinit\n"
              + script;
    }
    session().out().print(script);
    session().out().flush();
    return ExitCodes.OK;
  }

  static final class Shells extends java.util.ArrayList<String> {
    Shells() {
      super(java.util.List.of("bash", "zsh"));
    }
  }
}
