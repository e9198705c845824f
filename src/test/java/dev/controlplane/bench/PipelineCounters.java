package dev.controlplane.bench;

import dev.controlplane.it.support.Http;

/**
 * The leader's write pipeline as its node's {@code /metrics} counts it: batches committed, the
 * operations in them, and the seconds its batches took from validation to commit. Read before and
 * after a write phase, the difference says how large the batches were and how much of the phase the
 * pipeline was busy committing: the serial part every write waits for.
 */
record PipelineCounters(double batches, double operations, double busySeconds) {

  static PipelineCounters read(Http http) {
    String text = http.get("/metrics", "text/plain").body();
    return new PipelineCounters(
        value(text, "controlplane_write_batches_total"),
        value(text, "controlplane_write_operations_total"),
        value(text, "controlplane_write_batch_duration_seconds_sum"));
  }

  /** One line on what the pipeline did between {@code before} and this, over {@code seconds}. */
  String since(PipelineCounters before, double seconds) {
    double n = batches - before.batches;
    double ops = operations - before.operations;
    double busy = busySeconds - before.busySeconds;
    return String.format(
        "write pipeline: %.0f batches, %.2f operations per batch, %.2f ms per batch,"
            + " busy %.0f %% of the phase",
        n, n == 0 ? 0 : ops / n, n == 0 ? 0 : busy * 1000 / n, 100 * busy / seconds);
  }

  private static double value(String text, String name) {
    for (String line : text.split("\n")) {
      if (line.startsWith(name + "{") || line.startsWith(name + " ")) {
        return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    throw new IllegalStateException("/metrics has no " + name);
  }
}
