package dev.controlplane.write;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Timer;

/**
 * What the write pipeline does: batches committed and the operations in them (their ratio is the
 * mean batch size), how long operations waited in the queue for their batch, how long the batches'
 * transactions took, batches the database failed and operations answered with an error. Every
 * operation whose wait is timed ends up counted once: answered from a committed batch, or failed.
 */
@ApplicationScoped
public class PipelineMetrics {

  @Inject MetricRegistry registry;

  private Counter batches;
  private Counter operations;
  private Counter failures;
  private Counter failedOperations;
  private Counter refused;
  private Timer transactions;
  private Timer waits;

  void register(java.util.Collection<?> queue) {
    registry.gauge(
        Metadata.builder()
            .withName("controlplane.write.queue.depth")
            .withDescription("Write operations waiting for this node's write pipeline")
            .build(),
        queue,
        java.util.Collection::size);
    refused =
        counter(
            "controlplane.write.queue.refused",
            "Write operations refused at once because the pipeline's queue was full"
                + " (SERVICE_CONTROLPLANE_WRITE_QUEUE_LIMIT)");
    batches = counter("controlplane.write.batches", "Write batches committed by this node");
    operations =
        counter(
            "controlplane.write.operations",
            "Write operations answered from committed batches (refusals and dry runs included)");
    failures =
        counter(
            "controlplane.write.batch.failures",
            "Write batches that failed as a whole (database lost, or fenced off)");
    failedOperations =
        counter(
            "controlplane.write.operations.failed",
            "Write operations answered with an error instead of an outcome: their batch failed"
                + " (database lost, fenced off, leadership changed), the database refused them,"
                + " or an unexpected error");
    transactions =
        registry.timer(
            Metadata.builder()
                .withName("controlplane.write.batch.duration")
                .withDescription(
                    "How long committed write batches took, from validating their operations"
                        + " to the commit of their PostgreSQL transaction")
                .build());
    waits =
        registry.timer(
            Metadata.builder()
                .withName("controlplane.write.queue.wait")
                .withDescription(
                    "How long write operations waited in the leader's queue, from their"
                        + " submission to the start of their batch")
                .build());
  }

  private Counter counter(String name, String description) {
    return registry.counter(Metadata.builder().withName(name).withDescription(description).build());
  }

  void committed(int size, long transactionNanos) {
    if (batches != null) {
      batches.inc();
      operations.inc(size);
      transactions.update(Duration.ofNanos(transactionNanos));
    }
  }

  /** The operations of a batch that starts at {@code startNanos}, each timed from its queueing. */
  void started(List<Pending<?>> batch, long startNanos) {
    if (waits != null) {
      for (Pending<?> p : batch) {
        waits.update(Duration.ofNanos(startNanos - p.queuedAt()));
      }
    }
  }

  void operationsFailed(int count) {
    if (failedOperations != null) {
      failedOperations.inc(count);
    }
  }

  void refused() {
    if (refused != null) {
      refused.inc();
    }
  }

  void failed() {
    if (failures != null) {
      failures.inc();
    }
  }
}
