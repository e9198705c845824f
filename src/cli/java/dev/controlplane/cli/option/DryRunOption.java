package dev.controlplane.cli.option;

import dev.controlplane.cli.CliException;
import picocli.CommandLine.Option;

/**
 * {@code --dry-run[=server|none]}: the server runs every check of the write and commits nothing
 * (docs/api.md, Dry runs). {@code client} is refused: only the server knows what would happen.
 */
public final class DryRunOption {

  @Option(
      names = "--dry-run",
      arity = "0..1",
      fallbackValue = "server",
      defaultValue = "none",
      paramLabel = "MODE",
      description =
          "server: the server checks everything and changes nothing (--dry-run alone means"
              + " server). Default: ${DEFAULT-VALUE}.")
  String mode;

  public boolean enabled() {
    return switch (mode) {
      case "server" -> true;
      case "none" -> false;
      default ->
          throw CliException.usage(
              "--dry-run must be server or none (a client-side dry run could not know what the"
                  + " server would do)");
    };
  }

  /** The suffix of each output line in a dry run. */
  public String note() {
    return enabled() ? " (server dry run)" : "";
  }
}
