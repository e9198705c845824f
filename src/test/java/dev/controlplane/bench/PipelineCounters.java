package dev.controlplane.bench;

import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The leader's write pipeline as its node's {@code /metrics} counts it: batches committed, the
 * operations in them, the seconds its batches took from validation to commit, and the seconds
 * operations waited in its queue for their batch. Read before and after a write phase, the
 * difference says how large the batches were and how much of the phase the pipeline was busy
 * committing: the serial part every write waits for. With PostgreSQL's own count of the WAL it
 * wrote ({@code pg_stat_wal}, for the whole database cluster, which serves only the benchmark's
 * node).
 */
record PipelineCounters(
    double batches,
    double operations,
    double busySeconds,
    double waits,
    double waitSeconds,
    long walBytes,
    long walRecords) {

  static PipelineCounters read(Http http) {
    String text = http.get("/metrics", "text/plain").body();
    try (Connection c = TestDatabase.connect();
        Statement st = c.createStatement();
        ResultSet wal = st.executeQuery("SELECT wal_bytes, wal_records FROM pg_stat_wal")) {
      wal.next();
      return new PipelineCounters(
          value(text, "controlplane_write_batches_total"),
          value(text, "controlplane_write_operations_total"),
          value(text, "controlplane_write_batch_duration_seconds_sum"),
          value(text, "controlplane_write_queue_wait_seconds_count"),
          value(text, "controlplane_write_queue_wait_seconds_sum"),
          wal.getLong(1),
          wal.getLong(2));
    } catch (SQLException e) {
      throw new IllegalStateException("pg_stat_wal: " + e.getMessage(), e);
    }
  }

  /** One line on what the pipeline did between {@code before} and this, over {@code seconds}. */
  String since(PipelineCounters before, double seconds) {
    double n = batches - before.batches;
    double ops = operations - before.operations;
    double busy = busySeconds - before.busySeconds;
    double waited = waits - before.waits;
    return String.format(
        "write pipeline: %.0f batches, %.2f operations per batch, %.2f ms per batch,"
            + " busy %.0f %% of the phase, %.3f ms queued per operation; PostgreSQL's WAL %.0f"
            + " bytes in %.1f records per operation",
        n,
        n == 0 ? 0 : ops / n,
        n == 0 ? 0 : busy * 1000 / n,
        100 * busy / seconds,
        waited == 0 ? 0 : (waitSeconds - before.waitSeconds) * 1000 / waited,
        ops == 0 ? 0 : (walBytes - before.walBytes) / ops,
        ops == 0 ? 0 : (walRecords - before.walRecords) / ops);
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
