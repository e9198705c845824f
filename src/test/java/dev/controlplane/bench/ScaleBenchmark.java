package dev.controlplane.bench;

import dev.controlplane.it.support.Grpc;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.Ports;
import dev.controlplane.it.support.ServerProcess;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.TestDatabase;
import dev.controlplane.proto.v1.GetSnapshotRequest;
import dev.controlplane.proto.v1.GetSnapshotResponse;
import dev.controlplane.proto.v1.Metadata;
import dev.controlplane.proto.v1.ShardAssignment;
import dev.controlplane.proto.v1.ShardPlacement;
import dev.controlplane.proto.v1.Stream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The in-memory image at scale (docs/benchmarks.md): a node started on {@code bench.streams}
 * streams × {@code bench.shards} shards and {@code bench.brokers} brokers (seeded in SQL), with the
 * server heap capped at {@code server.heap} (1 GiB): the time to load the image at start, the live
 * heap, latest snapshots over gRPC, then {@code bench.watchers} open watchers following writes, the
 * live heap again, and the side-by-side benchmark's writes/s with 8 writers (over HTTP and over
 * gRPC) at that size. Run with scripts/benchmark-scale.
 */
public final class ScaleBenchmark {

  private static final int STREAMS = Integer.getInteger("bench.streams", 100_000);
  private static final int SHARDS = Integer.getInteger("bench.shards", 16);
  private static final int BROKERS = Integer.getInteger("bench.brokers", 1000);
  private static final int WATCHERS = Integer.getInteger("bench.watchers", 1000);
  private static final int WATCHED_WRITES = Integer.getInteger("bench.watchedWrites", 200);
  private static final int SNAPSHOTS = Integer.getInteger("bench.snapshots", 5);
  private static final int CROWD = Integer.getInteger("bench.crowd", 0);
  private static final int RESTARTED_SNAPSHOTS = Integer.getInteger("bench.restartedSnapshots", 0);

  public static void main(String[] args) throws Exception {
    String db = TestDatabase.url(System.getProperty("bench.db", "controlplane_bench"));
    TestDatabase.reset(db);
    int httpPort = Ports.free();
    int grpcPort = Ports.free();
    Map<String, String> env = BenchNode.environment(httpPort, grpcPort, db);
    env.put("SERVICE_CONTROLPLANE_WATCH_STALL_TIMEOUT", "60s");
    String keepEncoded = System.getProperty("bench.keepEncoded");
    if (keepEncoded != null) {
      env.put("SERVICE_CONTROLPLANE_SNAPSHOT_KEEP_ENCODED", keepEncoded);
    }
    String limit = System.getProperty("bench.snapshotLimit");
    if (limit != null) {
      env.put("SERVICE_CONTROLPLANE_SNAPSHOT_MAX_CONCURRENT", limit);
    }
    try (ServerProcess migrate = new ServerProcess("scale-migrate", env).start()) {
      migrate.awaitReady(Duration.ofSeconds(180));
    }
    long t0 = System.nanoTime();
    ScaleSeed.seed(db, BROKERS, STREAMS, SHARDS);
    System.out.printf(
        "seeded %d streams x %d shards (RF 3) on %d brokers in SQL in %.0f s; server heap -Xmx%s%n",
        STREAMS,
        SHARDS,
        BROKERS,
        (System.nanoTime() - t0) / 1e9,
        System.getProperty("server.heap"));
    long start = System.nanoTime();
    try (ServerProcess server = new ServerProcess("scale", env).start()) {
      server.awaitReady(Duration.ofSeconds(600));
      System.out.printf(
          "node start to ready (image loaded from the tables): %.1f s; live heap %s%n",
          (System.nanoTime() - start) / 1e9, liveHeap(server));
      Http http = new Http(httpPort, SharedServer.OPERATOR_TOKEN);
      long firstWrite = System.nanoTime();
      int status = http.put("/v1/tenants/scale", Http.tenant("scale", "first write")).status();
      System.out.printf(
          "first write after ready (the leader's write state loaded before it): HTTP %d in %.0f ms%n",
          status, (System.nanoTime() - firstWrite) / 1e6);
      try (Grpc grpc = new Grpc(grpcPort, SharedServer.BROKER_TOKEN)) {
        warmClientParsing();
        snapshots(grpc, server, SNAPSHOTS);
        System.out.println("live heap after the snapshots: " + liveHeap(server));
      }
      if (CROWD > 0) {
        crowd(grpcPort, server);
      }
      if (!Boolean.getBoolean("bench.snapshotsOnly")) {
        watchers(http, grpcPort, server);
        writes(httpPort, grpcPort, db, server.serverPid());
      }
    }
    if (RESTARTED_SNAPSHOTS > 0) {
      snapshotsAfterRestart(env, grpcPort);
    }
  }

  /**
   * The node started again on the same tables, then {@code bench.restartedSnapshots} latest
   * snapshots taken by this JVM, whose client path the snapshots before have compiled: the first
   * one is the node's cold path alone, as a long-running broker sees it after a node restarts.
   */
  private static void snapshotsAfterRestart(Map<String, String> env, int grpcPort)
      throws Exception {
    long start = System.nanoTime();
    try (ServerProcess server = new ServerProcess("scale-restarted", env).start()) {
      server.awaitReady(Duration.ofSeconds(600));
      System.out.printf(
          "node restarted: start to ready %.1f s; the same client JVM, warm, asks again%n",
          (System.nanoTime() - start) / 1e9);
      try (Grpc grpc = new Grpc(grpcPort, SharedServer.BROKER_TOKEN)) {
        snapshots(grpc, server, RESTARTED_SNAPSHOTS);
      }
    }
  }

  /** The side-by-side benchmark's two 8-writer phases, on a node holding this much metadata. */
  private static void writes(int httpPort, int grpcPort, String db, long nodePid) throws Exception {
    List<CpuMeter> server = List.of(CpuMeter.of("node", nodePid), CpuMeter.postgres());
    ControlPlaneTarget http = new ControlPlaneTarget(httpPort, grpcPort, db, 1);
    List<Target> targets =
        List.of(http, new ControlPlaneGrpcWrites(httpPort, grpcPort, 8, "scale", http));
    for (Target t : targets) {
      SideBySideBenchmark.writes(t, Duration.ofSeconds(5), List.of());
      SideBySideBenchmark.writes(t, Duration.ofSeconds(20), server);
      t.close();
    }
  }

  /**
   * Parses a chunk built here for a few seconds before the first snapshot, so that the first
   * snapshot's figure is the node's cold path and not also this JVM compiling protobuf's parser: a
   * broker that reconnects has parsed snapshots before.
   */
  private static void warmClientParsing() throws Exception {
    Metadata.Builder part = Metadata.newBuilder();
    for (int i = 0; i < 500; i++) {
      part.addStreams(
          Stream.newBuilder().setTenant("warm").setNamespace("ns").setName("s" + i).setVersion(i));
      ShardPlacement.Builder placement =
          ShardPlacement.newBuilder().setTenant("warm").setNamespace("ns").setStream("s" + i);
      for (int shard = 0; shard < 16; shard++) {
        placement.addPlacements(
            ShardAssignment.newBuilder()
                .setShardId(shard)
                .setLeader("broker-" + shard)
                .addReplicas("broker-" + shard)
                .addReplicas("broker-" + (shard + 1))
                .addReplicas("broker-" + (shard + 2)));
      }
      part.addPlacements(placement);
    }
    byte[] chunk = GetSnapshotResponse.newBuilder().setMetadata(part).build().toByteArray();
    long until = System.nanoTime() + 5_000_000_000L;
    long parsed = 0;
    while (System.nanoTime() < until) {
      parsed += GetSnapshotResponse.parseFrom(chunk).getMetadata().getPlacementsCount();
    }
    System.out.printf("client warm-up: parsed %,d placements of 16 shards in 5 s%n", parsed);
  }

  /** {@code count} latest snapshots one after another, each with the node's and clients' CPU. */
  private static void snapshots(Grpc grpc, ServerProcess server, int count) {
    List<CpuMeter> sides = List.of(CpuMeter.of("node", server.serverPid()), CpuMeter.clients());
    for (int round = 1; round <= count; round++) {
      snapshot(grpc, round, sides);
    }
  }

  private static void snapshot(Grpc grpc, int round, List<CpuMeter> sides) {
    List<Duration> before = sides.stream().map(CpuMeter::total).toList();
    long start = System.nanoTime();
    long bytes = 0;
    int chunks = 0;
    int streams = 0;
    int placements = 0;
    int brokers = 0;
    Iterator<GetSnapshotResponse> it =
        grpc.metadata().getSnapshot(GetSnapshotRequest.getDefaultInstance());
    while (it.hasNext()) {
      GetSnapshotResponse chunk = it.next();
      bytes += chunk.getSerializedSize();
      chunks++;
      streams += chunk.getMetadata().getStreamsCount();
      placements += chunk.getMetadata().getPlacementsCount();
      brokers += chunk.getMetadata().getBrokersCount();
    }
    double millis = (System.nanoTime() - start) / 1e6;
    StringBuilder cpu = new StringBuilder();
    for (int i = 0; i < sides.size(); i++) {
      cpu.append(
          String.format(
              "%s %.0f ms, ", sides.get(i).name(), sides.get(i).millisPer(before.get(i), 1)));
    }
    System.out.printf(
        "latest snapshot %d: %d streams, %d placements, %d brokers, %,d bytes in %d chunks, %.0f ms"
            + " (CPU: %s)%n",
        round,
        streams,
        placements,
        brokers,
        bytes,
        chunks,
        millis,
        cpu.substring(0, cpu.length() - 2));
  }

  /**
   * {@code bench.crowd} brokers asking for the latest snapshot at the same moment, each on a
   * channel of its own and reading as fast as it can: when each got its first chunk and its last,
   * and the node's peak resident memory before and after (its heap, and the transport's buffers
   * outside it). {@code bench.snapshotLimit} sets the node's SNAPSHOT_MAX_CONCURRENT.
   */
  private static void crowd(int grpcPort, ServerProcess server) throws Exception {
    long residentBefore = resident(server);
    long[] residentMax = {residentBefore};
    Thread sampler =
        new Thread(
            () -> {
              while (!Thread.currentThread().isInterrupted()) {
                residentMax[0] = Math.max(residentMax[0], resident(server));
                try {
                  Thread.sleep(50);
                } catch (InterruptedException e) {
                  return;
                }
              }
            });
    sampler.start();
    List<Grpc> channels = new ArrayList<>();
    for (int i = 0; i < CROWD; i++) {
      channels.add(new Grpc(grpcPort, SharedServer.BROKER_TOKEN));
    }
    long[] first = new long[CROWD];
    long[] last = new long[CROWD];
    long[] bytes = new long[CROWD];
    java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(CROWD);
    long start = System.nanoTime();
    for (int i = 0; i < CROWD; i++) {
      int broker = i;
      channels
          .get(i)
          .metadataAsync()
          .getSnapshot(
              GetSnapshotRequest.getDefaultInstance(),
              new io.grpc.stub.StreamObserver<>() {
                @Override
                public void onNext(GetSnapshotResponse chunk) {
                  if (first[broker] == 0) {
                    first[broker] = System.nanoTime() - start;
                  }
                  bytes[broker] += chunk.getSerializedSize();
                }

                @Override
                public void onError(Throwable t) {
                  System.out.println("snapshot " + broker + " failed: " + t);
                  done.countDown();
                }

                @Override
                public void onCompleted() {
                  last[broker] = System.nanoTime() - start;
                  done.countDown();
                }
              });
    }
    done.await(30, java.util.concurrent.TimeUnit.MINUTES);
    double wall = (System.nanoTime() - start) / 1e9;
    sampler.interrupt();
    sampler.join();
    channels.forEach(Grpc::close);
    long[] firsts = java.util.Arrays.stream(first).sorted().toArray();
    long[] lasts = java.util.Arrays.stream(last).sorted().toArray();
    System.out.printf(
        "%d snapshots asked at once (limit %s): all done in %.1f s, %,d bytes each;"
            + " first chunk after p50 %.2f s, max %.2f s; complete after min %.2f s, p50 %.2f s,"
            + " max %.2f s%n",
        CROWD,
        System.getProperty("bench.snapshotLimit", "default"),
        wall,
        bytes[0],
        firsts[CROWD / 2] / 1e9,
        firsts[CROWD - 1] / 1e9,
        lasts[0] / 1e9,
        lasts[CROWD / 2] / 1e9,
        lasts[CROWD - 1] / 1e9);
    System.out.printf(
        "node's resident memory: %d MiB before, at most %d MiB during (sampled every 50 ms)%n",
        residentBefore >> 20, residentMax[0] >> 20);
  }

  /** The node's resident memory in bytes (VmRSS), 0 if unreadable. */
  private static long resident(ServerProcess server) {
    try {
      for (String line :
          java.nio.file.Files.readAllLines(
              java.nio.file.Path.of("/proc/" + server.serverPid() + "/status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("\\D", "")) * 1024;
        }
      }
    } catch (java.io.IOException e) {
      return 0;
    }
    return 0;
  }

  private static void watchers(Http http, int grpcPort, ServerProcess server) throws Exception {
    http.put("/v1/tenants/scale/namespaces/watched", Http.namespace("scale", "watched", "w"));
    long from = http.get("/v1/tenants/scale/namespaces/watched").version();
    List<Grpc> channels = new ArrayList<>();
    for (int c = 0; c < 20; c++) {
      channels.add(new Grpc(grpcPort, SharedServer.BROKER_TOKEN));
    }
    AtomicLongArray seen = new AtomicLongArray(WATCHERS);
    List<AutoCloseable> watches = new ArrayList<>();
    for (int w = 0; w < WATCHERS; w++) {
      int index = w;
      watches.add(
          ControlPlaneTarget.watch(
              channels.get(w % channels.size()), from, v -> seen.incrementAndGet(index)));
    }
    Thread.sleep(2000);
    long start = System.nanoTime();
    for (int i = 0; i < WATCHED_WRITES; i++) {
      http.put(
          "/v1/tenants/scale/namespaces/watched-" + (i % 20),
          Http.namespace("scale", "watched-" + (i % 20), "write " + i));
      Thread.sleep(20);
    }
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (min(seen) < WATCHED_WRITES && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    System.out.printf(
        "%d watchers on one node, %d writes: every watcher got %d..%d updates in %.1f s;"
            + " live heap %s%n",
        WATCHERS,
        WATCHED_WRITES,
        min(seen),
        max(seen),
        (System.nanoTime() - start) / 1e9,
        liveHeap(server));
    for (AutoCloseable w : watches) {
      w.close();
    }
    channels.forEach(Grpc::close);
  }

  private static long min(AtomicLongArray a) {
    long m = Long.MAX_VALUE;
    for (int i = 0; i < a.length(); i++) {
      m = Math.min(m, a.get(i));
    }
    return m;
  }

  private static long max(AtomicLongArray a) {
    long m = 0;
    for (int i = 0; i < a.length(); i++) {
      m = Math.max(m, a.get(i));
    }
    return m;
  }

  /** The server's heap in use right after a full GC (jcmd), i.e. what it really keeps. */
  static String liveHeap(ServerProcess server) throws Exception {
    String pid = Long.toString(server.serverPid());
    run("jcmd", pid, "GC.run");
    String info = run("jcmd", pid, "GC.heap_info");
    Matcher m = Pattern.compile("total (\\d+)K, used (\\d+)K").matcher(info);
    Matcher max = Pattern.compile("MaxHeapSize=(\\d+)").matcher(run("jcmd", pid, "VM.flags"));
    String cap = max.find() ? Long.parseLong(max.group(1)) / (1024 * 1024) + " MiB" : "unknown";
    return m.find()
        ? String.format(
            "%d MiB used of %d MiB committed, heap capped at %s",
            Long.parseLong(m.group(2)) / 1024, Long.parseLong(m.group(1)) / 1024, cap)
        : "unknown (" + info.strip() + ")";
  }

  private static String run(String... command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    p.waitFor();
    return out;
  }
}
