package dev.controlplane.metadata.snapshot;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;

/** How many snapshots this node is sending, and how many wait for a place. */
@ApplicationScoped
public class SnapshotMetrics {

  @Inject MetricRegistry registry;

  public void register(SnapshotSlots slots) {
    registry.gauge(
        Metadata.builder()
            .withName("controlplane.snapshots.sending")
            .withDescription("GetSnapshot calls being sent by this node")
            .build(),
        slots,
        SnapshotSlots::sending);
    registry.gauge(
        Metadata.builder()
            .withName("controlplane.snapshots.waiting")
            .withDescription(
                "GetSnapshot calls waiting for one of the service.controlplane.snapshot.max.concurrent places")
            .build(),
        slots,
        SnapshotSlots::waiting);
  }
}
