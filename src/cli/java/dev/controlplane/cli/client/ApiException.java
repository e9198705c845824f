package dev.controlplane.cli.client;

import dev.controlplane.cli.CliException;
import dev.controlplane.cli.ExitCodes;

/** The server answered with an error. A 503 means no node could serve it now: exit code 4. */
public final class ApiException extends CliException {

  private final Problem problem;

  public ApiException(Problem problem) {
    super(problem.status() == 503 ? ExitCodes.UNREACHABLE : ExitCodes.FAILED, problem.oneLine());
    this.problem = problem;
  }

  public Problem problem() {
    return problem;
  }

  public int status() {
    return problem.status();
  }

  public String code() {
    return problem.code();
  }
}
