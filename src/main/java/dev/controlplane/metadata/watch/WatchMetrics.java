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
  private Counter logPageReads;
  private Counter databaseBehind;

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
                        + " retained change log no longer reached back to it, a new history"
                        + " began, or the database went back behind it")
                .build());
    databaseBehind =
        registry.counter(
            Metadata.builder()
                .withName("controlplane.database.behind")
                .withDescription(
                    "Times this node found the database behind a metadata version it had read:"
                        + " the database lost committed versions (a restore, or a failover to a"
                        + " standby that had not received them)")
                .build());
    logPageReads =
        registry.counter(
            Metadata.builder()
                .withName("controlplane.watch.log.reads")
                .withDescription(
                    "Pages of the change log read from the table for watches behind the window;"
                        + " watches catching up from the same place share each read")
                .build());
  }

  void logPageRead() {
    if (logPageReads != null) {
      logPageReads.inc();
    }
  }

  void imageReloaded() {
    if (imageReloads != null) {
      imageReloads.inc();
    }
  }

  void databaseBehind() {
    if (databaseBehind != null) {
      databaseBehind.inc();
    }
  }

  void cutOff() {
    if (cutOffs != null) {
      cutOffs.inc();
    }
  }
}
