package dev.controlplane;

import jakarta.enterprise.context.ApplicationScoped;

/** How far start-up got, for the health checks. */
@ApplicationScoped
public class StartupState {

  private volatile boolean schemaValid;
  private volatile boolean started;
  private volatile boolean stopping;

  void schemaValid() {
    schemaValid = true;
  }

  void started() {
    started = true;
  }

  void stopping() {
    stopping = true;
  }

  public boolean isSchemaValid() {
    return schemaValid;
  }

  public boolean isStarted() {
    return started;
  }

  /** Started and not stopping: what liveness reports. */
  public boolean isRunning() {
    return started && !stopping;
  }
}
