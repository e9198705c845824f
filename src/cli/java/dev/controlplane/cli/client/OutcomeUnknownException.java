package dev.controlplane.cli.client;

import dev.controlplane.cli.CliException;
import dev.controlplane.cli.ExitCodes;

/**
 * A write reached a server and got no answer that says whether it was stored: it timed out, its
 * connection broke after sending, or a 503 {@code unavailable} said it may or may not be. It is not
 * sent again: a second create of an object the first one stored would be refused as a conflict, a
 * second delete as not found. Read the object before retrying (docs/api.md, Errors). Exit code 4.
 */
public final class OutcomeUnknownException extends CliException {

  OutcomeUnknownException(String message) {
    super(ExitCodes.UNREACHABLE, message);
  }
}
