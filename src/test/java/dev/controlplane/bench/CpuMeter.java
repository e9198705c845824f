package dev.controlplane.bench;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * CPU time spent by the processes under test during a measured phase, read from the operating
 * system (user + system time of each process): what a result costs each side on this machine, which
 * throughput alone hides when client and server share its two cores.
 */
final class CpuMeter {

  private final String name;
  private final Predicate<ProcessHandle> processes;

  private CpuMeter(String name, Predicate<ProcessHandle> processes) {
    this.name = name;
    this.processes = processes;
  }

  /** One process, such as the node or etcd. */
  static CpuMeter of(String name, long pid) {
    return new CpuMeter(name, p -> p.pid() == pid);
  }

  /** This benchmark's own JVM: the clients. */
  static CpuMeter clients() {
    return of("clients", ProcessHandle.current().pid());
  }

  /**
   * Every PostgreSQL process of the machine (backends, WAL writer, checkpointer): the benchmarks
   * run alone, so what they spend is the control plane's database work.
   */
  static CpuMeter postgres() {
    return new CpuMeter(
        "PostgreSQL", p -> p.info().command().map(c -> c.endsWith("/postgres")).orElse(false));
  }

  String name() {
    return name;
  }

  /** The CPU time the processes have used so far (processes that exited meanwhile drop out). */
  Duration total() {
    return ProcessHandle.allProcesses()
        .filter(processes)
        .map(p -> p.info().totalCpuDuration())
        .flatMap(Optional::stream)
        .reduce(Duration.ZERO, Duration::plus);
  }

  /** Milliseconds of CPU per operation between {@code before} and now. */
  double millisPer(Duration before, long operations) {
    return total().minus(before).toNanos() / 1e6 / Math.max(1, operations);
  }
}
