package dev.controlplane.cli.client;

import dev.controlplane.cli.CliException;
import dev.controlplane.cli.ExitCodes;

/**
 * No server served a request, and none can have stored it: each one could not be reached, or
 * refused the request before writing anything, or it was a read. Repeating it later is safe. Exit
 * code 4.
 */
public final class NotServedException extends CliException {

  NotServedException(String message) {
    super(ExitCodes.UNREACHABLE, message);
  }
}
