package dev.controlplane.metadata.watch;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;

/** What an operator watches on the change stream: the version served, open watches, cut-offs. */
@ApplicationScoped
public class WatchMetrics {

  @Inject MetricRegistry registry;

  private Counter cutOffs;
  private Counter imageReloads;

  void register(WatchHub hub) {
    registry.gauge(
        Metadata.builder()
            .withName("controlplane.metadata.version")
            .withDescription("The newest metadata version this node has read from the change log")
            .build(),
        hub,
        WatchHub::head);
    registry.gauge(
        Metadata.builder()
            .withName("controlplane.watch.streams")
            .withDescription("WatchUpdates streams open on this node")
            .build(),
        hub,
        WatchHub::watcherCount);
    cutOffs =
        registry.counter(
            Metadata.builder()
                .withName("controlplane.watch.cutoffs")
                .withDescription(
                    "Watches closed with RESOURCE_EXHAUSTED because they stopped reading")
                .build());
    imageReloads =
        registry.counter(
            Metadata.builder()
                .withName("controlplane.image.reloads")
                .withDescription(
                    "Times this node reloaded its metadata image from the tables because the"
                        + " retained change log no longer reached back to it")
                .build());
  }

  void imageReloaded() {
    if (imageReloads != null) {
      imageReloads.inc();
    }
  }

  void cutOff() {
    if (cutOffs != null) {
      cutOffs.inc();
    }
  }
}
