package dev.controlplane.bench;

import dev.controlplane.it.support.Grpc;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.Metrics;
import dev.controlplane.it.support.Ports;
import dev.controlplane.it.support.ServerProcess;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.TestDatabase;
import dev.controlplane.proto.v1.MetadataUpdate;
import dev.controlplane.proto.v1.WatchUpdatesRequest;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Brokers resuming from far behind the window at once, as after a failover: {@code bench.watchers}
 * watches from versions behind the node's window, each taking only {@code bench.initial} updates
 * and then not reading (its transport stops being ready). Prints the node's live heap while they
 * all wait, then lets them read and prints how long until every one reached the head and how many
 * pages of the log the node read for them. Run with scripts/benchmark-catch-up; pass {@code
 * -Dcontrolplane.jar=} another build's runnable jar to compare.
 */
public final class CatchUpBenchmark {

  private static final int WATCHERS = Integer.getInteger("bench.watchers", 1000);
  private static final int WINDOW = Integer.getInteger("bench.window", 1_000);
  private static final int BEHIND = Integer.getInteger("bench.behind", 2_000);
  private static final int SPREAD = Integer.getInteger("bench.spread", 1_000);
  private static final int UPDATES = BEHIND + SPREAD + 100;
  private static final int INITIAL = Integer.getInteger("bench.initial", 20);
  private static final int DESCRIPTION = Integer.getInteger("bench.descriptionChars", 200);
  private static final int CHANNELS = 20;

  public static void main(String[] args) throws Exception {
    String db = TestDatabase.url(System.getProperty("bench.db", "controlplane_bench_catch_up"));
    TestDatabase.reset(db);
    int httpPort = Ports.free();
    int grpcPort = Ports.free();
    Map<String, String> env = BenchNode.writeEnvironment(httpPort, grpcPort, db);
    env.put("SERVICE_CONTROLPLANE_WATCH_WINDOW", Integer.toString(WINDOW));
    env.put("SERVICE_CONTROLPLANE_WATCH_STALL_TIMEOUT", "10m");
    try (ServerProcess server = new ServerProcess("catch-up", env).start()) {
      server.awaitReady(Duration.ofSeconds(180));
      Http http = new Http(httpPort, SharedServer.OPERATOR_TOKEN);
      long head = write(http);
      System.out.printf(
          "%d updates of namespaces with %d-character descriptions; window %d; node heap -Xmx%s;"
              + " live heap with no watch: %s%n",
          UPDATES,
          DESCRIPTION,
          WINDOW,
          System.getProperty("server.heap", "default"),
          ScaleBenchmark.liveHeap(server));
      List<Grpc> channels = new ArrayList<>();
      for (int c = 0; c < CHANNELS; c++) {
        // A small window, not grown by BDP probes: the node's streams stop being ready after a
        // few updates instead of the client buffering megabytes of them.
        channels.add(
            new Grpc(
                NettyChannelBuilder.forAddress("127.0.0.1", grpcPort)
                    .usePlaintext()
                    .flowControlWindow(64 * 1024)
                    .build(),
                SharedServer.BROKER_TOKEN));
      }
      if (BEHIND <= WINDOW) {
        throw new IllegalArgumentException("bench.behind must exceed bench.window");
      }
      List<LaggingWatch> watches = new ArrayList<>();
      double readsBefore = logReads(httpPort);
      for (int w = 0; w < WATCHERS; w++) {
        // Brokers that fell behind at about the same time: within bench.spread of each other.
        long from = head - BEHIND - ThreadLocalRandom.current().nextInt(SPREAD);
        LaggingWatch watch = new LaggingWatch(from);
        channels
            .get(w % CHANNELS)
            .metadataAsync()
            .watchUpdates(WatchUpdatesRequest.newBuilder().setFromVersion(from).build(), watch);
        watch.request(INITIAL);
        watches.add(watch);
      }
      long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
      while (watches.stream().anyMatch(w -> w.received < INITIAL) && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      Thread.sleep(2_000); // the node sends until each transport stops being ready
      System.out.printf(
          "%d watches from %d..%d versions behind, each took %d updates and stopped reading;"
              + " live heap: %s; pages read from the log so far: %.0f%n",
          WATCHERS,
          head - watches.stream().mapToLong(w -> w.from).max().orElse(0),
          head - watches.stream().mapToLong(w -> w.from).min().orElse(0),
          INITIAL,
          ScaleBenchmark.liveHeap(server),
          logReads(httpPort) - readsBefore);
      long released = System.nanoTime();
      watches.forEach(LaggingWatch::readEverything);
      deadline = System.nanoTime() + Duration.ofSeconds(300).toNanos();
      while (watches.stream().anyMatch(w -> w.last < head) && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      long reached = watches.stream().filter(w -> w.last >= head).count();
      System.out.printf(
          "then reading: %d of %d watches at the head %.1f s later (%.0f updates/s sent);"
              + " pages read from the log in all: %.0f; errors: %d; live heap: %s%n",
          reached,
          WATCHERS,
          (System.nanoTime() - released) / 1e9,
          watches.stream().mapToLong(w -> w.received).sum()
              / ((System.nanoTime() - released) / 1e9),
          logReads(httpPort) - readsBefore,
          watches.stream().filter(w -> w.failed != null).count(),
          ScaleBenchmark.liveHeap(server));
      watches.forEach(LaggingWatch::cancel);
      channels.forEach(Grpc::close);
    }
  }

  private static long write(Http http) {
    String description = "x".repeat(DESCRIPTION);
    http.put("/v1/tenants/lag", Http.tenant("lag", "catch-up"));
    long last = 0;
    for (int i = 0; i < UPDATES; i++) {
      String ns = "n" + (i % 100);
      Http.Reply reply =
          http.put(
              "/v1/tenants/lag/namespaces/" + ns,
              Http.namespace("lag", ns, description.substring(0, DESCRIPTION - 6) + i));
      if (reply.status() != 200 && reply.status() != 201) {
        throw new IllegalStateException(reply.status() + " " + reply.body());
      }
      last = reply.version();
    }
    return last;
  }

  private static double logReads(int httpPort) {
    try {
      return Metrics.valueIn(Metrics.scrape(httpPort), "controlplane_watch_log_reads_total", "");
    } catch (AssertionError older) {
      return Double.NaN; // a build before the counter
    }
  }

  /** A broker that takes a few updates, stops reading, and later reads everything. */
  private static final class LaggingWatch
      implements ClientResponseObserver<WatchUpdatesRequest, MetadataUpdate> {
    final long from;
    volatile long received;
    volatile long last;
    volatile Throwable failed;
    private volatile ClientCallStreamObserver<WatchUpdatesRequest> call;

    LaggingWatch(long from) {
      this.from = from;
      this.last = from;
    }

    @Override
    public void beforeStart(ClientCallStreamObserver<WatchUpdatesRequest> requests) {
      call = requests;
      requests.disableAutoInboundFlowControl();
    }

    @Override
    public void onNext(MetadataUpdate update) {
      received++;
      last = Math.max(last, update.getVersion());
    }

    void request(int updates) {
      call.request(updates);
    }

    void readEverything() {
      call.request(Integer.MAX_VALUE);
    }

    void cancel() {
      call.cancel("benchmark over", null);
    }

    @Override
    public void onError(Throwable t) {
      failed = t;
    }

    @Override
    public void onCompleted() {}
  }
}
