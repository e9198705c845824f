package dev.controlplane.broker;

import dev.controlplane.cluster.Leadership;
import dev.controlplane.config.ControlPlaneConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.logging.Logger;

/**
 * Marks brokers down after three missed heartbeats. Leadership changes restart the clock: a broker
 * is judged from the later of its last heartbeat and the moment this node became leader, because a
 * new leader cannot know whether brokers were heartbeating to the previous one.
 */
@ApplicationScoped
public class FailureDetector {

  private static final Logger LOG = Logger.getLogger(FailureDetector.class.getName());
  static final int MISSED_HEARTBEATS = 3;

  @Inject BrokerRegistry registry;
  @Inject Leadership leadership;
  @Inject ControlPlaneConfig config;

  public Duration checkPeriod() {
    return config.heartbeatInterval().dividedBy(5);
  }

  public void check() {
    Instant graceStart = leadership.leaderSince().orElse(Instant.now());
    Duration silence = config.heartbeatInterval().multipliedBy(MISSED_HEARTBEATS);
    for (String broker : registry.silentBrokers(silence, graceStart)) {
      if (registry.markDownIfSilent(broker, silence, graceStart)) {
        LOG.info("broker " + broker + " missed " + MISSED_HEARTBEATS + " heartbeats; marked down");
      }
    }
  }
}
