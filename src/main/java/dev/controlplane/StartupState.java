package dev.controlplane;

import jakarta.enterprise.context.ApplicationScoped;

/** How far start-up got, for the readiness check. */
@ApplicationScoped
public class StartupState {

  private volatile boolean schemaValid;
  private volatile boolean started;

  void schemaValid() {
    schemaValid = true;
  }

  void started() {
    started = true;
  }

  public boolean isSchemaValid() {
    return schemaValid;
  }

  public boolean isStarted() {
    return started;
  }
}
