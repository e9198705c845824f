package dev.controlplane.config;

/**
 * A setting, or the configuration file, that the service cannot start with. Its message is the one
 * line an operator needs (it names the environment variable or file key), so start-up logs it
 * without a stack trace.
 */
public final class InvalidSettingException extends IllegalArgumentException {

  public InvalidSettingException(String message) {
    super(message);
  }
}
