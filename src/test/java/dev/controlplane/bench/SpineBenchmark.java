package dev.controlplane.bench;

import dev.controlplane.it.support.ClientImage;
import dev.controlplane.it.support.Grpc;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.Ports;
import dev.controlplane.it.support.ServerProcess;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.TestDatabase;
import dev.controlplane.proto.v1.GetSnapshotRequest;
import dev.controlplane.proto.v1.GetSnapshotResponse;
import dev.controlplane.proto.v1.MetadataUpdate;
import dev.controlplane.proto.v1.RegisterBrokerRequest;
import dev.controlplane.proto.v1.WatchUpdatesRequest;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * Measures the metadata spine on one node (docs/benchmarks.md): sustained writes per second,
 * commit-to-watcher latency with 100 watchers at a steady write rate, and a snapshot of 10,000
 * streams x 16 shards with 100 brokers. Starts its own server against the controlplane_bench
 * database, which it empties first. Run with scripts/benchmark.
 */
public final class SpineBenchmark {

  private static final int WRITE_THREADS = Integer.getInteger("bench.writers", 16);
  private static final Duration WRITE_DURATION =
      Duration.ofSeconds(Long.getLong("bench.writeSeconds", 20));
  private static final int WATCHERS = Integer.getInteger("bench.watchers", 100);
  private static final int STEADY_RATE = Integer.getInteger("bench.rate", 200);
  private static final Duration STEADY_DURATION =
      Duration.ofSeconds(Long.getLong("bench.steadySeconds", 20));
  private static final int STREAMS = Integer.getInteger("bench.streams", 10_000);
  private static final int SHARDS = Integer.getInteger("bench.shards", 16);
  private static final int BROKERS = Integer.getInteger("bench.brokers", 100);

  public static void main(String[] args) throws Exception {
    String db = TestDatabase.url("controlplane_bench");
    TestDatabase.reset(db);
    int httpPort = Ports.free();
    int grpcPort = Ports.free();
    Map<String, String> env = BenchNode.writeEnvironment(httpPort, grpcPort, db);
    env.put("SERVICE_CONTROLPLANE_DB_POOL_SIZE", "40");
    System.out.printf(
        "machine: %d cores, JDK %s%n",
        Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
    try (ServerProcess server = new ServerProcess("benchmark", env).start()) {
      server.awaitReady(Duration.ofSeconds(120));
      Http http = new Http(httpPort, SharedServer.OPERATOR_TOKEN);
      http.put("/v1/tenants/bench", Http.tenant("bench", "benchmark"));
      sustainedWrites(http);
      watchLatency(http, grpcPort);
      bigSnapshot(http, grpcPort);
    }
  }

  private static void sustainedWrites(Http http) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(WRITE_THREADS);
    Histogram latency = new Histogram(3);
    AtomicLong writes = new AtomicLong();
    long deadline = System.nanoTime() + WRITE_DURATION.toNanos();
    long start = System.nanoTime();
    List<Future<?>> futures = new ArrayList<>();
    for (int t = 0; t < WRITE_THREADS; t++) {
      int thread = t;
      futures.add(
          pool.submit(
              () -> {
                int i = 0;
                while (System.nanoTime() < deadline) {
                  String ns = "w" + thread + "-" + (i % 100);
                  long t0 = System.nanoTime();
                  var reply =
                      http.put(
                          "/v1/tenants/bench/namespaces/" + ns,
                          Http.namespace("bench", ns, "rev " + i));
                  if (reply.status() >= 300) {
                    throw new IllegalStateException(reply.body());
                  }
                  synchronized (latency) {
                    latency.recordValue((System.nanoTime() - t0) / 1000);
                  }
                  writes.incrementAndGet();
                  i++;
                }
                return null;
              }));
    }
    for (Future<?> f : futures) {
      f.get();
    }
    pool.shutdown();
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf(
        "sustained writes: %d writes in %.1f s with %d HTTP writers = %.0f writes/s (latency p50 %.1f ms, p99 %.1f ms)%n",
        writes.get(),
        seconds,
        WRITE_THREADS,
        writes.get() / seconds,
        latency.getValueAtPercentile(50) / 1000.0,
        latency.getValueAtPercentile(99) / 1000.0);
  }

  private static void watchLatency(Http http, int grpcPort) throws Exception {
    long from =
        TestDatabase.queryLong(
            TestDatabase.url("controlplane_bench"), "SELECT metadata_version FROM cluster_state");
    Map<Long, long[]> sent = new ConcurrentHashMap<>(); // version -> {request start, ack}
    Histogram fromAck = new Histogram(3);
    Histogram fromRequest = new Histogram(3);
    AtomicLong beforeAck = new AtomicLong();
    List<Grpc> channels = new ArrayList<>();
    int expected = (int) (STEADY_RATE * STEADY_DURATION.toSeconds());
    CountDownLatch done = new CountDownLatch(WATCHERS);
    List<long[]> received = java.util.Collections.synchronizedList(new ArrayList<>());
    for (int c = 0; c < 10; c++) {
      channels.add(new Grpc(grpcPort, SharedServer.BROKER_TOKEN));
    }
    for (int w = 0; w < WATCHERS; w++) {
      Grpc channel = channels.get(w % channels.size());
      channel
          .metadataAsync()
          .watchUpdates(
              WatchUpdatesRequest.newBuilder().setFromVersion(from).build(),
              new StreamObserver<>() {
                int count;

                @Override
                public void onNext(MetadataUpdate u) {
                  if (u.getPayloadCase() != MetadataUpdate.PayloadCase.PAYLOAD_NOT_SET) {
                    received.add(new long[] {u.getVersion(), System.nanoTime()});
                    if (++count == expected) {
                      done.countDown();
                    }
                  }
                }

                @Override
                public void onError(Throwable t) {
                  if (count < expected) {
                    System.out.println("watch failed before receiving every update: " + t);
                  }
                  done.countDown();
                }

                @Override
                public void onCompleted() {}
              });
    }
    Thread.sleep(1000);
    long interval = 1_000_000_000L / STEADY_RATE;
    long next = System.nanoTime();
    for (int i = 0; i < expected; i++) {
      while (System.nanoTime() < next) {
        Thread.onSpinWait();
      }
      next += interval;
      String ns = "steady-" + (i % 100);
      long t0 = System.nanoTime();
      var reply =
          http.put(
              "/v1/tenants/bench/namespaces/" + ns, Http.namespace("bench", ns, "steady " + i));
      sent.put(reply.version(), new long[] {t0, System.nanoTime()});
    }
    boolean all = done.await(60, TimeUnit.SECONDS);
    for (long[] r : new ArrayList<>(received)) {
      long[] s = sent.get(r[0]);
      if (s == null) {
        continue;
      }
      fromRequest.recordValue(Math.max(0, r[1] - s[0]) / 1000);
      long afterAck = r[1] - s[1];
      if (afterAck < 0) {
        beforeAck.incrementAndGet();
      }
      fromAck.recordValue(Math.max(0, afterAck) / 1000);
    }
    System.out.printf(
        "watch latency: %d watchers, %d writes at %d/s, %d deliveries%s%n",
        WATCHERS, expected, STEADY_RATE, fromRequest.getTotalCount(), all ? "" : " (INCOMPLETE)");
    System.out.printf(
        "  write request sent -> update at watcher: p50 %.2f ms, p99 %.2f ms, max %.2f ms%n",
        fromRequest.getValueAtPercentile(50) / 1000.0,
        fromRequest.getValueAtPercentile(99) / 1000.0,
        fromRequest.getMaxValue() / 1000.0);
    System.out.printf(
        "  write acknowledged -> update at watcher: p50 %.2f ms, p99 %.2f ms, max %.2f ms (%.1f%% arrived before the ack)%n",
        fromAck.getValueAtPercentile(50) / 1000.0,
        fromAck.getValueAtPercentile(99) / 1000.0,
        fromAck.getMaxValue() / 1000.0,
        100.0 * beforeAck.get() / Math.max(1, fromAck.getTotalCount()));
    channels.forEach(Grpc::close);
  }

  private static void bigSnapshot(Http http, int grpcPort) throws Exception {
    try (Grpc grpc = new Grpc(grpcPort, SharedServer.BROKER_TOKEN)) {
      for (int b = 0; b < BROKERS; b++) {
        grpc.brokers()
            .registerBroker(
                RegisterBrokerRequest.newBuilder()
                    .setBrokerId(String.format("broker-%03d", b))
                    .setAddress("10.1." + (b / 250) + "." + (b % 250) + ":7000")
                    .putMetadata("region", "r1")
                    .putMetadata("availability_zone", "z" + (b % 3))
                    .build());
      }
      int namespaces = 10;
      for (int n = 0; n < namespaces; n++) {
        http.put(
            "/v1/tenants/bench/namespaces/s" + n, Http.namespace("bench", "s" + n, "snapshot"));
      }
      ExecutorService pool = Executors.newFixedThreadPool(8);
      var admin =
          dev.controlplane.proto.v1.AdminServiceGrpc.newBlockingStub(
              new Grpc(grpcPort, SharedServer.OPERATOR_TOKEN).channel());
      long t0 = System.nanoTime();
      List<Future<?>> futures = new ArrayList<>();
      for (int s = 0; s < STREAMS; s++) {
        int stream = s;
        futures.add(
            pool.submit(
                () ->
                    admin.createStream(
                        dev.controlplane.proto.v1.CreateStreamRequest.newBuilder()
                            .setTenantId("bench")
                            .setNamespace("s" + (stream % namespaces))
                            .setStream("stream-" + stream)
                            .setSpec(
                                dev.controlplane.proto.v1.StreamSpec.newBuilder()
                                    .setShards(SHARDS)
                                    .setReplicationFactor(3)
                                    .setRetention(
                                        dev.controlplane.proto.v1.RetentionPolicy.newBuilder()
                                            .setTime("7d")))
                            .build())));
      }
      for (Future<?> f : futures) {
        f.get();
      }
      pool.shutdown();
      double createSeconds = (System.nanoTime() - t0) / 1e9;
      System.out.printf(
          "CreateStream: %d streams x %d shards (RF 3) on %d brokers in %.1f s = %.0f CreateStream/s (8 gRPC clients)%n",
          STREAMS, SHARDS, BROKERS, createSeconds, STREAMS / createSeconds);

      for (int round = 0; round < 3; round++) {
        long start = System.nanoTime();
        long bytes = 0;
        int chunks = 0;
        Iterator<GetSnapshotResponse> it =
            grpc.metadata().getSnapshot(GetSnapshotRequest.getDefaultInstance());
        int streams = 0;
        int placements = 0;
        int brokers = 0;
        long version = 0;
        while (it.hasNext()) {
          GetSnapshotResponse chunk = it.next();
          bytes += chunk.getSerializedSize();
          chunks++;
          streams += chunk.getMetadata().getStreamsCount();
          placements += chunk.getMetadata().getPlacementsCount();
          brokers += chunk.getMetadata().getBrokersCount();
          version = chunk.getVersion();
        }
        double ms = (System.nanoTime() - start) / 1e6;
        System.out.printf(
            "snapshot %d: version %d, %d streams, %d placements, %d brokers, %d bytes in %d chunks, %.0f ms"
                + " (client at the default 4 MiB message limit)%n",
            round + 1, version, streams, placements, brokers, bytes, chunks, ms);
      }
      long head =
          TestDatabase.queryLong(
              TestDatabase.url("controlplane_bench"), "SELECT metadata_version FROM cluster_state");
      long start = System.nanoTime();
      ClientImage past = ClientImage.snapshot(grpc.metadata(), head - 5000);
      System.out.printf(
          "snapshot at a past version (head - 5000, %d resources): %.0f ms%n",
          past.size(), (System.nanoTime() - start) / 1e6);
      rebalances(grpc, admin);
    }
  }

  /**
   * RebalanceShards of the whole cluster, dry run, for each strategy: after adding 10 brokers, then
   * after draining 5.
   */
  private static void rebalances(
      Grpc grpc, dev.controlplane.proto.v1.AdminServiceGrpc.AdminServiceBlockingStub admin) {
    for (int b = BROKERS; b < BROKERS + 10; b++) {
      grpc.brokers()
          .registerBroker(
              RegisterBrokerRequest.newBuilder()
                  .setBrokerId(String.format("broker-%03d", b))
                  .setAddress("10.2.0." + b + ":7000")
                  .putMetadata("region", "r" + (b % 2))
                  .putMetadata("availability_zone", "z" + (b % 3))
                  .build());
    }
    rebalanceRound(admin, "after adding 10 brokers");
    for (int b = 0; b < 5; b++) {
      admin.setBrokerStatus(
          dev.controlplane.proto.v1.SetBrokerStatusRequest.newBuilder()
              .setBrokerId(String.format("broker-%03d", b))
              .setStatus(dev.controlplane.proto.v1.BrokerStatus.BROKER_STATUS_DRAINING)
              .build());
    }
    rebalanceRound(admin, "after draining 5 brokers");
  }

  private static void rebalanceRound(
      dev.controlplane.proto.v1.AdminServiceGrpc.AdminServiceBlockingStub admin, String when) {
    for (var strategy :
        new dev.controlplane.proto.v1.RebalanceStrategy[] {
          dev.controlplane.proto.v1.RebalanceStrategy.BALANCED,
          dev.controlplane.proto.v1.RebalanceStrategy.MINIMIZE_MOVEMENT,
          dev.controlplane.proto.v1.RebalanceStrategy.LOCALITY_AWARE
        }) {
      long start = System.nanoTime();
      var plan =
          admin
              .withMaxInboundMessageSize(256 * 1024 * 1024)
              .rebalanceShards(
                  dev.controlplane.proto.v1.RebalanceShardsRequest.newBuilder()
                      .setStrategy(strategy)
                      .setDryRun(true)
                      .build());
      long leadership = plan.getMovesList().stream().filter(m -> m.getLeadership()).count();
      System.out.printf(
          "RebalanceShards %s, %s (dry run, whole cluster): %d replica moves + %d leadership moves in %.0f ms%n",
          strategy, when, plan.getMovementCount(), leadership, (System.nanoTime() - start) / 1e6);
    }
  }
}
