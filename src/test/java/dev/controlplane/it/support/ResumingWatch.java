package dev.controlplane.it.support;

import dev.controlplane.proto.v1.MetadataServiceGrpc;
import dev.controlplane.proto.v1.MetadataUpdate;
import dev.controlplane.proto.v1.WatchUpdatesRequest;
import io.grpc.Context;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A watch that behaves like a broker: it watches one node and, when that stream ends for any reason
 * (the node died, froze, was cut off, or closed the watch), resumes on the next node from the last
 * version it applied. It keeps what it received so a test can check the versions are in order,
 * without gaps, and the same updates as the log.
 */
public final class ResumingWatch implements AutoCloseable {

  /** One update as received: its version, kind and key (payload name). */
  public record Seen(long version, String kind, String key) {}

  private static final Map<MetadataUpdate.PayloadCase, String> KINDS =
      Map.of(
          MetadataUpdate.PayloadCase.TENANT, "Tenant",
          MetadataUpdate.PayloadCase.NAMESPACE, "Namespace",
          MetadataUpdate.PayloadCase.STREAM, "Stream",
          MetadataUpdate.PayloadCase.PLACEMENT, "ShardPlacement",
          MetadataUpdate.PayloadCase.BROKER, "Broker");

  private final TestCluster cluster;
  private final List<Seen> seen = new ArrayList<>();
  private final Thread thread;
  private volatile boolean running = true;
  private volatile Context.CancellableContext current;
  private int next;
  private long lastVersion;
  private int sessions;

  public ResumingWatch(TestCluster cluster, int firstNode, long fromVersion, String name) {
    this.cluster = cluster;
    this.next = firstNode;
    this.lastVersion = fromVersion;
    this.thread = new Thread(this::run, "resuming-watch-" + name);
    thread.setDaemon(true);
    thread.start();
  }

  private void run() {
    while (running) {
      List<TestCluster.Node> nodes = cluster.nodes();
      TestCluster.Node node = nodes.get(Math.floorMod(next, nodes.size()));
      try (Grpc grpc = node.grpc()) {
        watchUntilClosed(grpc.metadataAsync());
      } catch (RuntimeException | InterruptedException e) {
        // the node is down; try the next one
      }
      next++;
      sleep(200);
    }
  }

  private void watchUntilClosed(MetadataServiceGrpc.MetadataServiceStub stub)
      throws InterruptedException {
    CountDownLatch closed = new CountDownLatch(1);
    Context.CancellableContext context = Context.current().withCancellation();
    current = context;
    long from;
    synchronized (this) {
      from = lastVersion;
      sessions++;
    }
    lastHeard = System.nanoTime();
    context.run(
        () ->
            stub.withDeadlineAfter(1, TimeUnit.HOURS)
                .watchUpdates(
                    WatchUpdatesRequest.newBuilder().setFromVersion(from).build(),
                    new StreamObserver<>() {
                      @Override
                      public void onNext(MetadataUpdate update) {
                        received(update);
                      }

                      @Override
                      public void onError(Throwable t) {
                        closed.countDown();
                      }

                      @Override
                      public void onCompleted() {
                        closed.countDown();
                      }
                    }));
    // A frozen or cut-off node sends nothing and closes nothing: progress notices come at least
    // every few seconds, so silence for longer means the node is gone.
    while (running && !closed.await(500, TimeUnit.MILLISECONDS)) {
      if (silentFor() > Duration.ofSeconds(8).toNanos()) {
        break;
      }
    }
    context.cancel(null);
  }

  private volatile long lastHeard = System.nanoTime();

  private long silentFor() {
    return System.nanoTime() - lastHeard;
  }

  private synchronized void received(MetadataUpdate update) {
    lastHeard = System.nanoTime();
    if (update.getPayloadCase() == MetadataUpdate.PayloadCase.PAYLOAD_NOT_SET) {
      return;
    }
    String kind = KINDS.get(update.getPayloadCase());
    String key = update.hasTenant() ? update.getTenant().getName() : "";
    seen.add(new Seen(update.getVersion(), kind, key));
    lastVersion = update.getVersion();
    notifyAll();
  }

  /** Waits until the watch has applied {@code version}; false on timeout. */
  public synchronized boolean awaitVersion(long version, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (lastVersion < version) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      wait(Math.max(1, left / 1_000_000));
    }
    return true;
  }

  public synchronized List<Seen> seen() {
    return new ArrayList<>(seen);
  }

  /** How many streams it opened: 1 plus the number of times it resumed. */
  public synchronized int sessions() {
    return sessions;
  }

  /** Versions that are not exactly one above the previous one. */
  public synchronized List<String> gaps(long fromVersion) {
    List<String> anomalies = new ArrayList<>();
    long expected = fromVersion + 1;
    for (Seen s : seen) {
      if (s.version() != expected) {
        anomalies.add("expected version " + expected + ", got " + s.version());
      }
      expected = s.version() + 1;
    }
    return anomalies;
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    Context.CancellableContext c = current;
    if (c != null) {
      c.cancel(null);
    }
    thread.join(10_000);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
