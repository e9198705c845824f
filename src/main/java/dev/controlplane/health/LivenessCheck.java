package dev.controlplane.health;

import dev.controlplane.StartupState;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/**
 * Live while the application runs: from the end of start-up until shutdown begins. Deliberately
 * independent of the database: restarting a node does not bring a database back. When start-up
 * fails the process exits (ServiceLifecycle), so a probe never finds Liberty answering UP for an
 * application that is not there.
 */
@Liveness
@ApplicationScoped
public class LivenessCheck implements HealthCheck {

  @Inject StartupState state;

  @Override
  public HealthCheckResponse call() {
    return HealthCheckResponse.named("controlplane")
        .status(state.isRunning())
        .withData("started", state.isStarted())
        .build();
  }
}
