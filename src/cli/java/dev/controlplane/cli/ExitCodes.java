package dev.controlplane.cli;

/** What cpctl's exit status means (docs/cli.md, Exit codes). */
public final class ExitCodes {

  /** Everything asked for was done. */
  public static final int OK = 0;

  /** The server refused the operation, or at least one object of an apply or delete failed. */
  public static final int FAILED = 1;

  /** The command line or an input file is wrong; nothing was sent. */
  public static final int USAGE = 2;

  /** No usable context, server or credential is configured. */
  public static final int CONFIG = 3;

  /** No server could be reached, or none could serve the request now (503, UNAVAILABLE). */
  public static final int UNREACHABLE = 4;

  /** Interrupted (Ctrl-C), as shells report SIGINT. */
  public static final int INTERRUPTED = 130;

  private ExitCodes() {}
}
