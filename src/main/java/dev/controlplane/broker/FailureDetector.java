package dev.controlplane.broker;

import dev.controlplane.cluster.Leadership;
import dev.controlplane.config.ControlPlaneConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.logging.Logger;

/**
 * Marks brokers down after three missed heartbeats. A broker is judged from the later of its last
 * heartbeat and the start of the detector's current watch ({@link WatchedSince}): a new leader
 * cannot know whether brokers were heartbeating to the previous one, and after an outage of the
 * database (or of this node's leadership) nobody could record their heartbeats.
 */
@ApplicationScoped
public class FailureDetector {

  private static final Logger LOG = Logger.getLogger(FailureDetector.class.getName());
  static final int MISSED_HEARTBEATS = 3;

  @Inject BrokerRegistry registry;
  @Inject Leadership leadership;
  @Inject ControlPlaneConfig config;

  private WatchedSince watched;

  public Duration checkPeriod() {
    return config.heartbeatInterval().dividedBy(5);
  }

  /** Run by the leader's duties, one run at a time; a run that throws counts as a break. */
  public void check() {
    long term = leadership.term().orElse(0L);
    if (term == 0) {
      return;
    }
    if (watched == null) {
      watched = new WatchedSince(config.heartbeatInterval());
    }
    Instant graceStart = watched.start(term, System.nanoTime(), registry::databaseNow);
    Duration silence = config.heartbeatInterval().multipliedBy(MISSED_HEARTBEATS);
    for (String broker : registry.silentBrokers(silence, graceStart)) {
      if (registry.markDownIfSilent(broker, silence, graceStart)) {
        LOG.info("broker " + broker + " missed " + MISSED_HEARTBEATS + " heartbeats; marked down");
      }
    }
    watched.checked(System.nanoTime());
  }
}
