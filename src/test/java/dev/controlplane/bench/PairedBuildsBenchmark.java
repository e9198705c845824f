package dev.controlplane.bench;

import dev.controlplane.it.support.Ports;
import dev.controlplane.it.support.ServerProcess;
import dev.controlplane.it.support.TestDatabase;
import java.io.File;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Two builds of the control plane compared on this machine, whose speed moves by more between
 * minutes than most changes save (docs/benchmarks.md): both nodes run at once, each on its own
 * database, and short write bursts alternate between them in ABBA order, so that a drift of the
 * machine falls on both alike. Prints, per build and kind of write, writes/s and the CPU time per
 * write of the node and of PostgreSQL, and per round the ratio of the second build's node CPU per
 * write to the first's. Run with scripts/benchmark-compare.
 */
public final class PairedBuildsBenchmark {

  private static final int ROUNDS = Integer.getInteger("bench.rounds", 10);
  private static final Duration BURST = Duration.ofSeconds(Long.getLong("bench.burstSeconds", 5));

  /** One build under comparison: its node, its two kinds of writes, its totals per kind. */
  private static final class Build implements AutoCloseable {
    final String label;
    final ServerProcess server;
    final List<Target> targets = new ArrayList<>();
    final List<CpuMeter> meters;
    final long[] writes;
    final double[] seconds;
    final double[] nodeMillis;
    final double[] postgresMillis;

    Build(String label, String jar) throws Exception {
      this.label = label;
      String db = TestDatabase.url("controlplane_bench_" + label.toLowerCase());
      TestDatabase.reset(db);
      int httpPort = Ports.free();
      int grpcPort = Ports.free();
      Map<String, String> env = BenchNode.writeEnvironment(httpPort, grpcPort, db);
      this.server = new ServerProcess("compare-" + label, env).withJar(jar).start();
      try {
        server.awaitReady(Duration.ofSeconds(180));
        ControlPlaneTarget http = new ControlPlaneTarget(httpPort, grpcPort, db, 1);
        targets.add(http);
        targets.add(
            new ControlPlaneGrpcWrites(
                httpPort, grpcPort, SideBySideBenchmark.WRITERS, "bench", http));
      } catch (Exception e) {
        server.close(); // not left running when this build cannot be measured
        throw e;
      }
      meters = List.of(CpuMeter.of("node", server.serverPid()), CpuMeter.postgres());
      writes = new long[targets.size()];
      seconds = new double[targets.size()];
      nodeMillis = new double[targets.size()];
      postgresMillis = new double[targets.size()];
    }

    /** One burst of every kind of write; returns the node's CPU per write of each. */
    double[] round(Duration time) throws Exception {
      double[] node = new double[targets.size()];
      for (int k = 0; k < targets.size(); k++) {
        SideBySideBenchmark.Burst burst = SideBySideBenchmark.burst(targets.get(k), time, meters);
        writes[k] += burst.count();
        seconds[k] += burst.seconds();
        node[k] = burst.cpuPerWrite("node");
        nodeMillis[k] += node[k] * burst.count();
        postgresMillis[k] += burst.cpuPerWrite("PostgreSQL") * burst.count();
      }
      return node;
    }

    @Override
    public void close() throws Exception {
      for (Target t : targets) {
        t.close();
      }
      server.close();
    }
  }

  public static void main(String[] args) throws Exception {
    String a = System.getProperty("bench.a");
    String b = System.getProperty("bench.b");
    if (a == null || b == null || !new File(a).isFile() || !new File(b).isFile()) {
      throw new IllegalArgumentException(
          "name two runnable JARs: -Dbench.a=OLD.jar -Dbench.b=NEW.jar (got " + a + ", " + b + ")");
    }
    System.out.printf(
        "machine: %d cores, JDK %s; A = %s, B = %s; %d rounds of %d s bursts per build and kind%n",
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.version"),
        a,
        b,
        ROUNDS,
        BURST.toSeconds());
    try (Build first = new Build("A", a);
        Build second = new Build("B", b)) {
      Build[] builds = {first, second};
      String[] kinds = {"HTTP PUT namespace", "gRPC CreateStream"};
      double[][] ratios = new double[kinds.length][ROUNDS];
      for (Build build : builds) {
        for (Target t : build.targets) {
          SideBySideBenchmark.warmUp(t, build.meters.get(0));
        }
      }
      for (int r = 0; r < ROUNDS; r++) {
        // ABBA: A first in even rounds, B first in odd ones.
        double[] ofA;
        double[] ofB;
        if (r % 2 == 0) {
          ofA = first.round(BURST);
          ofB = second.round(BURST);
        } else {
          ofB = second.round(BURST);
          ofA = first.round(BURST);
        }
        StringBuilder line = new StringBuilder("round " + (r + 1) + ": node CPU per write");
        for (int k = 0; k < kinds.length; k++) {
          ratios[k][r] = ofB[k] / ofA[k];
          line.append(
              String.format(
                  "; %s A %.3f ms, B %.3f ms (B/A %.2f)", kinds[k], ofA[k], ofB[k], ratios[k][r]));
        }
        System.out.println(line);
      }
      for (int k = 0; k < kinds.length; k++) {
        for (Build build : builds) {
          System.out.printf(
              "%s, build %s: %.0f writes/s; CPU per write: node %.3f ms, PostgreSQL %.3f ms%n",
              kinds[k],
              build.label,
              build.writes[k] / build.seconds[k],
              build.nodeMillis[k] / build.writes[k],
              build.postgresMillis[k] / build.writes[k]);
        }
        double[] sorted = ratios[k].clone();
        Arrays.sort(sorted);
        System.out.printf(
            "%s: node CPU per write B/A, per round: median %.3f, range %.3f–%.3f%n",
            kinds[k],
            (sorted[(sorted.length - 1) / 2] + sorted[sorted.length / 2]) / 2,
            sorted[0],
            sorted[sorted.length - 1]);
      }
    }
    System.exit(0);
  }
}
