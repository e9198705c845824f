package dev.controlplane.write;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;

/**
 * What the write pipeline does: batches committed and the operations in them (their ratio is the
 * mean batch size), and batches the database failed.
 */
@ApplicationScoped
public class PipelineMetrics {

  @Inject MetricRegistry registry;

  private Counter batches;
  private Counter operations;
  private Counter failures;

  void register() {
    batches = counter("controlplane.write.batches", "Write batches committed by this node");
    operations =
        counter(
            "controlplane.write.operations",
            "Write operations answered from committed batches (refusals and dry runs included)");
    failures =
        counter(
            "controlplane.write.batch.failures",
            "Write batches that failed as a whole (database lost, or fenced off)");
  }

  private Counter counter(String name, String description) {
    return registry.counter(Metadata.builder().withName(name).withDescription(description).build());
  }

  void committed(int size) {
    if (batches != null) {
      batches.inc();
      operations.inc(size);
    }
  }

  void failed() {
    if (failures != null) {
      failures.inc();
    }
  }
}
