package dev.controlplane.cli;

/** A failure cpctl explains in one line and ends with {@link #exitCode()}. */
public class CliException extends RuntimeException {

  private final int exitCode;

  public CliException(int exitCode, String message) {
    super(message);
    this.exitCode = exitCode;
  }

  public CliException(int exitCode, String message, Throwable cause) {
    super(message, cause);
    this.exitCode = exitCode;
  }

  public int exitCode() {
    return exitCode;
  }

  public static CliException usage(String message) {
    return new CliException(ExitCodes.USAGE, message);
  }

  public static CliException config(String message) {
    return new CliException(ExitCodes.CONFIG, message);
  }
}
