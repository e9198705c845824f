package dev.controlplane.bench;

import dev.controlplane.it.support.Ports;
import dev.controlplane.it.support.ServerProcess;
import dev.controlplane.it.support.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * The control plane and etcd 3.4 (Debian's {@code etcd-server}) side by side in one run, driven by
 * the same harness and grpc-java (docs/benchmarks.md): writes/s with 8 concurrent writers (the
 * control plane twice: over its HTTP/JSON API and over its gRPC one), then commit-to-watcher
 * latency with 100 watchers while one client writes at a steady 100 writes/s (the control plane
 * again over each of its two APIs). Both run on this machine with their default durability (fsync
 * before acknowledging). Run with scripts/benchmark-etcd. With {@code -Dbench.targets=kafka,...}
 * (scripts/benchmark-kafka) Kafka 3.9's KRaft controller is a peer for the writes/s phases too.
 */
public final class SideBySideBenchmark {

  static final int WRITERS = Integer.getInteger("bench.writers", 8);
  private static final Duration WRITE_TIME =
      Duration.ofSeconds(Long.getLong("bench.writeSeconds", 20));
  private static final int WATCHERS = Integer.getInteger("bench.watchers", 100);
  private static final int RATE = Integer.getInteger("bench.rate", 100);
  private static final Duration STEADY_TIME =
      Duration.ofSeconds(Long.getLong("bench.steadySeconds", 20));
  // The lag phases first run this long unmeasured; the write phases until the server's CPU per
  // write settles (WarmUp).
  private static final Duration WARM_UP = WarmUp.MIN;
  // Unmeasured writes right before each measured write phase. The phases in between (other
  // targets, other kinds of write) leave the node's JIT recompiling this phase's paths, and the
  // first /metrics read loads classes that deoptimize compiled code: -XX:+PrintCompilation showed
  // over a thousand compilations in a node's first 10 s of a measured phase without this.
  private static final Duration REWARM =
      Duration.ofSeconds(Long.getLong("bench.rewarmSeconds", 20));

  // -Dbench.targets=etcd,http,grpc: which systems and transports run; -Dbench.writePhases=false
  // leaves out the writes/s phases (the warm-ups still run), for a quicker look at the lag.
  private static final Set<String> TARGETS = targets(System.getProperty("bench.targets"));
  private static final boolean WRITE_PHASES =
      Boolean.parseBoolean(System.getProperty("bench.writePhases", "true"));

  private static Set<String> targets(String setting) {
    Set<String> known = Set.of("etcd", "http", "grpc", "kafka", "kafka-broker");
    if (setting == null) {
      return Set.of("etcd", "http", "grpc");
    }
    Set<String> chosen = Set.of(setting.split(","));
    if (!known.containsAll(chosen)) {
      throw new IllegalArgumentException(
          "-Dbench.targets=" + setting + ": expected some of etcd,http,grpc,kafka,kafka-broker");
    }
    return chosen;
  }

  /**
   * Exits when the run ends, failed or not: an admin client of Kafka's left open by a failure keeps
   * non-daemon threads that would hold the JVM (and the machine's CPU) after the error.
   */
  public static void main(String[] args) {
    try {
      run();
    } catch (Throwable failure) {
      failure.printStackTrace();
      System.exit(1);
    }
    System.exit(0);
  }

  private static void run() throws Exception {
    String db = TestDatabase.url(System.getProperty("bench.db", "controlplane_bench"));
    TestDatabase.reset(db);
    int httpPort = Ports.free();
    int grpcPort = Ports.free();
    Map<String, String> env = BenchNode.writeEnvironment(httpPort, grpcPort, db);
    System.out.printf(
        "machine: %d cores, JDK %s%n",
        Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
    try (ServerProcess server = new ServerProcess("side-by-side", env).start();
        EtcdProcess etcd = TARGETS.contains("etcd") ? EtcdProcess.start() : null;
        KafkaProcess kafka =
            TARGETS.contains("kafka") || TARGETS.contains("kafka-broker")
                ? KafkaProcess.start()
                : null) {
      server.awaitReady(Duration.ofSeconds(180));
      CpuMeter node = CpuMeter.of("node", server.serverPid());
      List<CpuMeter> controlPlane = List.of(node, CpuMeter.postgres());
      // Each target with the processes that serve it: their CPU is the target's.
      Map<Target, List<CpuMeter>> servedBy = new LinkedHashMap<>();
      if (etcd != null) {
        System.out.println("etcd: " + etcd.version());
        servedBy.put(new EtcdTarget(etcd, 10), List.of(CpuMeter.of("etcd", etcd.pid())));
      }
      if (kafka != null) {
        System.out.println("kafka: " + kafka.version());
        List<CpuMeter> kafkaCpu = List.of(CpuMeter.of("kafka", kafka.pid()));
        if (TARGETS.contains("kafka")) {
          servedBy.put(new KafkaConfigWrites(kafka, WRITERS, false), kafkaCpu);
        }
        if (TARGETS.contains("kafka-broker")) {
          servedBy.put(new KafkaConfigWrites(kafka, WRITERS, true), kafkaCpu);
        }
      }
      ControlPlaneTarget http = new ControlPlaneTarget(httpPort, grpcPort, db, 10);
      if (TARGETS.contains("http")) {
        servedBy.put(http, controlPlane);
      }
      ControlPlaneGrpcWrites grpc =
          TARGETS.contains("grpc")
              ? new ControlPlaneGrpcWrites(httpPort, grpcPort, WRITERS, "bench", http)
              : null;
      if (grpc != null) {
        servedBy.put(grpc, controlPlane);
      }
      for (var t : servedBy.entrySet()) {
        warmUp(t.getKey(), t.getValue().get(0));
      }
      for (var t :
          WRITE_PHASES ? servedBy.entrySet() : Set.<Map.Entry<Target, List<CpuMeter>>>of()) {
        writes(t.getKey(), WRITE_TIME, t.getValue());
      }
      for (var t : servedBy.entrySet()) {
        if (t.getKey().watchable()) {
          lag(t.getKey(), t.getValue());
        }
      }
      if (grpc != null) {
        grpc.close();
      }
      http.close();
      for (Target t : servedBy.keySet()) {
        if (t instanceof KafkaConfigWrites) {
          t.close();
        }
      }
      // etcd and Kafka stop with the try block.
    }
  }

  /**
   * What one write phase did: how many writes in how many seconds, their latency, and the CPU time
   * per write of each measured process (the servers', then the clients').
   */
  record Burst(long count, double seconds, Histogram latency, List<String> names, double[] cpu) {
    double rate() {
      return count / seconds;
    }

    /** Milliseconds of CPU per write of the process named {@code name}. */
    double cpuPerWrite(String name) {
      return cpu[names.indexOf(name)];
    }
  }

  /**
   * {@link #WRITERS} writers for {@code time}. With the server's processes ({@code servers}), first
   * {@link #REWARM} of them unmeasured, then prints writes/s, latency, the CPU time per write of
   * each of them and of the clients, and what the control plane's write pipeline did; without, it
   * is a warm-up.
   */
  static void writes(Target target, Duration time, List<CpuMeter> servers) throws Exception {
    if (servers.isEmpty()) {
      burst(target, time, List.of());
      return;
    }
    target.pipeline();
    burst(target, REWARM, List.of());
    Optional<PipelineCounters> before = target.pipeline();
    Burst burst = burst(target, time, servers);
    System.out.printf(
        "%-13s writes: %d in %.1f s with %d writers = %.0f writes/s (latency p50 %.2f ms, p99 %.2f"
            + " ms)%n",
        target.name(),
        burst.count(),
        burst.seconds(),
        WRITERS,
        burst.rate(),
        burst.latency().getValueAtPercentile(50) / 1000.0,
        burst.latency().getValueAtPercentile(99) / 1000.0);
    System.out.printf("%-13s   CPU per write: %s%n", "", cpuLine(burst.names(), burst.cpu()));
    if (before.isPresent()) {
      System.out.printf(
          "%-13s   %s%n", "", target.pipeline().orElseThrow().since(before.get(), burst.seconds()));
    }
  }

  /** {@link #WRITERS} writers, unmeasured, until {@code server}'s CPU per write settles. */
  static void warmUp(Target target, CpuMeter server) throws Exception {
    WarmUp.untilSettled(target.name(), server, time -> burst(target, time, List.of()).count());
  }

  /** {@link #WRITERS} writers for {@code time}, and what each of {@code servers} spent. */
  static Burst burst(Target target, Duration time, List<CpuMeter> servers) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
    Histogram latency = new Histogram(3);
    AtomicLong count = new AtomicLong();
    List<CpuMeter> meters = new ArrayList<>(servers);
    meters.add(CpuMeter.clients());
    List<Duration> before = meters.stream().map(CpuMeter::total).toList();
    long start = System.nanoTime();
    long deadline = start + time.toNanos();
    List<Future<?>> futures = new ArrayList<>();
    for (int w = 0; w < WRITERS; w++) {
      int writer = w;
      futures.add(
          pool.submit(
              () -> {
                for (int i = 0; System.nanoTime() < deadline; i++) {
                  long t0 = System.nanoTime();
                  target.write(writer, i);
                  synchronized (latency) {
                    latency.recordValue((System.nanoTime() - t0) / 1000);
                  }
                  count.incrementAndGet();
                }
                return null;
              }));
    }
    for (Future<?> f : futures) {
      f.get();
    }
    pool.shutdown();
    double seconds = (System.nanoTime() - start) / 1e9;
    double[] cpu = new double[meters.size()];
    for (int i = 0; i < meters.size(); i++) {
      cpu[i] = meters.get(i).millisPer(before.get(i), count.get());
    }
    return new Burst(
        count.get(), seconds, latency, meters.stream().map(CpuMeter::name).toList(), cpu);
  }

  /**
   * {@link #WATCHERS} watchers from the head; one writer at {@link #RATE}/s, first for {@link
   * #WARM_UP} unmeasured (the write phases never touched the watch path, and a JVM's first
   * deliveries run in its interpreter), then for {@link #STEADY_TIME} measured.
   */
  private static void lag(Target target, List<CpuMeter> servers) throws Exception {
    long from = target.head();
    ConcurrentLinkedQueue<long[]> received = new ConcurrentLinkedQueue<>(); // {version, at}
    List<AutoCloseable> watches = new ArrayList<>();
    for (int w = 0; w < WATCHERS; w++) {
      watches.add(target.watch(w, from, v -> received.add(new long[] {v, System.nanoTime()})));
    }
    Thread.sleep(1000);
    int warmUp = (int) (RATE * WARM_UP.toSeconds());
    steadyWrites(target, warmUp, new ConcurrentHashMap<>());
    awaitDeliveries(received, warmUp * target.updatesPerWrite());
    received.clear();
    int expected = (int) (RATE * STEADY_TIME.toSeconds());
    Map<Long, long[]> sent = new ConcurrentHashMap<>(); // version -> {request sent, acknowledged}
    Optional<PipelineCounters> before = target.pipeline();
    List<CpuMeter> meters = new ArrayList<>(servers);
    meters.add(CpuMeter.clients());
    List<Duration> cpuBefore = meters.stream().map(CpuMeter::total).toList();
    long start = System.nanoTime();
    steadyWrites(target, expected, sent);
    double seconds = (System.nanoTime() - start) / 1e9;
    Optional<PipelineCounters> after = target.pipeline();
    awaitDeliveries(received, expected * target.updatesPerWrite());
    double[] cpu = new double[meters.size()];
    for (int i = 0; i < meters.size(); i++) {
      cpu[i] = meters.get(i).millisPer(cpuBefore.get(i), expected);
    }
    for (AutoCloseable w : watches) {
      w.close();
    }
    report(target, expected, sent, received);
    // The delivery to every watcher included: what a write costs each side with watchers open.
    System.out.printf(
        "%-13s   CPU per write, deliveries included: %s%n",
        "", cpuLine(meters.stream().map(CpuMeter::name).toList(), cpu));
    // A lone write's answer split in two: its batch's transaction, and the rest of the trip.
    if (before.isPresent() && after.isPresent()) {
      System.out.printf("%-13s   %s%n", "", after.get().since(before.get(), seconds));
    }
  }

  /** {@code count} writes at {@link #RATE}/s, each version's send and acknowledgement times. */
  private static void steadyWrites(Target target, int count, Map<Long, long[]> sent)
      throws Exception {
    long interval = 1_000_000_000L / RATE;
    long next = System.nanoTime();
    for (int i = 0; i < count; i++) {
      // Sleep, not spin, until the next write: on 2 cores a spinning writer takes a whole core
      // from the system under test and its watchers for the entire phase.
      for (long now = System.nanoTime(); now < next; now = System.nanoTime()) {
        LockSupport.parkNanos(next - now);
      }
      next += interval;
      long t0 = System.nanoTime();
      long version = target.write(WRITERS + 1, i);
      sent.put(version, new long[] {t0, System.nanoTime()});
    }
  }

  private static void awaitDeliveries(ConcurrentLinkedQueue<long[]> received, int writes)
      throws InterruptedException {
    long wait = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (received.size() < (long) writes * WATCHERS && System.nanoTime() < wait) {
      Thread.sleep(50);
    }
  }

  private static void report(
      Target target, int expected, Map<Long, long[]> sent, ConcurrentLinkedQueue<long[]> received) {
    Histogram fromAck = new Histogram(3);
    Histogram fromSend = new Histogram(3);
    for (long[] r : received) {
      long[] s = sent.get(r[0]);
      if (s != null) {
        fromSend.recordValue(Math.max(0, r[1] - s[0]) / 1000);
        fromAck.recordValue(Math.max(0, r[1] - s[1]) / 1000);
      }
    }
    System.out.printf(
        "%-13s commit-to-watcher: %d watchers, %d writes at %d/s, %d of %d deliveries%n",
        target.name(),
        WATCHERS,
        expected,
        RATE,
        fromAck.getTotalCount(),
        (long) expected * WATCHERS);
    printMillis("from acknowledgement:", fromAck);
    printMillis("from request sent:   ", fromSend);
    // The writer's own round trips: what "from request sent" holds besides the delivery.
    Histogram answer = new Histogram(3);
    sent.values().forEach(s -> answer.recordValue(Math.max(0, s[1] - s[0]) / 1000));
    printMillis("the writer's answers:", answer);
  }

  /** "node 0.170 ms, PostgreSQL 0.160 ms, …": each process's milliseconds of CPU per write. */
  private static String cpuLine(List<String> names, double[] millis) {
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < names.size(); i++) {
      line.append(i == 0 ? "" : ", ")
          .append(names.get(i))
          .append(String.format(" %.3f ms", millis[i]));
    }
    return line.toString();
  }

  /** One line of p50, p99 and max of a histogram of microseconds, in milliseconds. */
  private static void printMillis(String label, Histogram micros) {
    System.out.printf(
        "%-13s   %s p50 %.2f ms, p99 %.2f ms, max %.2f ms%n",
        "",
        label,
        micros.getValueAtPercentile(50) / 1000.0,
        micros.getValueAtPercentile(99) / 1000.0,
        micros.getMaxValue() / 1000.0);
  }
}
