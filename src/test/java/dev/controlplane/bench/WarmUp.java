package dev.controlplane.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Unmeasured load until the server's CPU per operation stops falling. A JVM on two cores that it
 * shares with its load keeps compiling for minutes, and its compiler threads' CPU counts as the
 * server's: a node that had exchanged tokens for 30 s still gave C2 about a fifth of its CPU, and
 * its CPU per exchange fell from 2.6 to 1.6 ms by 120 s (docs/benchmarks.md, "Eleventh session").
 *
 * <p>The load runs in slices of {@code bench.warmUpSliceSeconds} (10). It stops once at least
 * {@code bench.warmUpSeconds} (30) have passed and the last two slices each cost the server no less
 * than 95 % of the cheapest slice before them, or after {@code bench.warmUpMaxSeconds} (300).
 */
final class WarmUp {

  static final Duration MIN = Duration.ofSeconds(Long.getLong("bench.warmUpSeconds", 30));
  private static final Duration MAX =
      Duration.ofSeconds(Long.getLong("bench.warmUpMaxSeconds", 300));
  private static final Duration SLICE =
      Duration.ofSeconds(Long.getLong("bench.warmUpSliceSeconds", 10));
  private static final double GAIN = 0.95;
  private static final int CALM_SLICES = 2;

  private WarmUp() {}

  /** Runs the load for a time; returns how many operations it did. */
  @FunctionalInterface
  interface Load {
    long run(Duration time) throws Exception;
  }

  /**
   * Runs {@code load} until {@code server}'s CPU per operation settles, then prints one line: each
   * slice's CPU per operation and the operations in all. Returns those operations.
   */
  static long untilSettled(String what, CpuMeter server, Load load) throws Exception {
    long start = System.nanoTime();
    List<Double> slices = new ArrayList<>();
    long operations = 0;
    double cheapest = Double.MAX_VALUE;
    int calm = 0;
    Duration elapsed = Duration.ZERO;
    while (elapsed.compareTo(MAX) < 0 && (elapsed.compareTo(MIN) < 0 || calm < CALM_SLICES)) {
      Duration before = server.total();
      long n = load.run(SLICE);
      operations += n;
      double millis = server.millisPer(before, n);
      slices.add(millis);
      calm = millis < cheapest * GAIN ? 0 : calm + 1;
      cheapest = Math.min(cheapest, millis);
      elapsed = Duration.ofNanos(System.nanoTime() - start);
    }
    StringBuilder line = new StringBuilder();
    for (double s : slices) {
      line.append(line.isEmpty() ? "" : " ").append(String.format(Locale.ROOT, "%.3f", s));
    }
    System.out.printf(
        "warm-up, %s: %d operations in %d s; %s CPU per operation by %d s slice: %s ms%s%n",
        what,
        operations,
        elapsed.toSeconds(),
        server.name(),
        SLICE.toSeconds(),
        line,
        calm < CALM_SLICES ? " (still falling at the limit, bench.warmUpMaxSeconds)" : "");
    return operations;
  }
}
