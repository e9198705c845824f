package dev.controlplane.error;

/** A listener could not open its port; the message names the port and its setting. */
public final class PortUnavailableException extends RuntimeException {

  public PortUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
