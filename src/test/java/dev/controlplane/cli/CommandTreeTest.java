package dev.controlplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The command tree: every command documented with examples; usage errors exit 2. */
class CommandTreeTest {

  private static List<CommandLine> all(CommandLine command) {
    List<CommandLine> out = new ArrayList<>();
    out.add(command);
    command.getSubcommands().values().forEach(c -> out.addAll(all(c)));
    return out;
  }

  private static InProcess.Run run(String... args) {
    return InProcess.cpctl(args);
  }

  @Test
  void everyCommandHasAOneLineSummaryAndExamplesInItsHelp() {
    SoftAssertions soft = new SoftAssertions();
    List<CommandLine> commands = all(Cpctl.commandLine(Cpctl.detached()));
    for (CommandLine command : commands) {
      String name = command.getCommandSpec().qualifiedName();
      String help =
          command.getUsageMessage(CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF));
      soft.assertThat(help).as(name).contains("Examples:").contains("  cpctl ");
      String summary =
          command.getCommandSpec().usageMessage().header().length > 0
              ? command.getCommandSpec().usageMessage().header()[0]
              : command.getCommandSpec().usageMessage().description()[0];
      soft.assertThat(summary.length()).as(name + " summary: " + summary).isLessThanOrEqualTo(70);
      help.lines()
          .filter(l -> l.startsWith("  cpctl") || l.startsWith("      "))
          .forEach(
              l ->
                  soft.assertThat(l.length())
                      .as(name + " example line fits 80 columns: " + l)
                      .isLessThanOrEqualTo(80));
    }
    soft.assertAll();
    assertThat(commands.size()).isGreaterThan(40);
  }

  @Test
  void theCompletionScriptsKnowEveryCommand() {
    InProcess.Run bash = run("completion", "bash");
    assertThat(bash.exit()).isZero();
    for (String word :
        List.of(
            "apply",
            "get",
            "describe",
            "delete",
            "watch",
            "snapshot",
            "token",
            "rbac",
            "issuers",
            "keys",
            "streams",
            "brokers",
            "cluster",
            "rebalance",
            "audit",
            "set-context")) {
      assertThat(bash.out()).as(word).contains(word);
    }
    InProcess.Run zsh = run("completion", "zsh");
    assertThat(zsh.out())
        .startsWith("autoload -U +X compinit")
        .contains("bashcompinit")
        .contains("rebalance");
  }

  @Test
  void usageErrorsExitWithTwoAndSayWhereTheHelpIs() {
    InProcess.Run unknown = run("frobnicate");
    assertThat(unknown.exit()).isEqualTo(ExitCodes.USAGE);
    assertThat(unknown.err()).contains("error: Unmatched argument").contains("See 'cpctl --help'");
    InProcess.Run missing = run("streams");
    assertThat(missing.exit()).isEqualTo(ExitCodes.USAGE);
    assertThat(missing.err()).contains("missing subcommand");
    InProcess.Run badKind = run("get", "gadgets", "-t", "acme");
    assertThat(badKind.exit()).isEqualTo(ExitCodes.USAGE);
    assertThat(badKind.err()).contains("unknown kind gadgets");
    assertThat(run("apply").exit()).isEqualTo(ExitCodes.USAGE);
  }
}
