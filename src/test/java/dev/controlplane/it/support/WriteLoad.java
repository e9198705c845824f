package dev.controlplane.it.support;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A steady stream of tenant writes to whichever node leads, the way a client follows the cluster:
 * on 503 it goes where {@code Location} points, on a connection failure it tries the next node, and
 * it retries the same idempotent PUT until one is acknowledged. Records every acknowledged write.
 */
public final class WriteLoad implements AutoCloseable {

  /**
   * An acknowledged write: the tenant, the version the server returned, the node that acknowledged
   * it and when (System.nanoTime).
   */
  public record Ack(String tenant, long version, String node, long atNanos) {}

  private static final java.time.Duration REQUEST_TIMEOUT = java.time.Duration.ofSeconds(1);

  private final TestCluster cluster;
  private final String prefix;
  private final List<Ack> acks = new ArrayList<>();
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final Thread thread;
  private volatile int target;
  private volatile long refusals;

  public WriteLoad(TestCluster cluster, String prefix) {
    this.cluster = cluster;
    this.prefix = prefix;
    this.thread = new Thread(this::run, "write-load-" + prefix);
    thread.setDaemon(true);
  }

  public WriteLoad start() {
    thread.start();
    return this;
  }

  private void run() {
    int n = 0;
    while (running.get()) {
      String tenant = prefix + "-" + n;
      if (writeOnce(tenant)) {
        n++;
      } else {
        pause(50);
      }
    }
  }

  private boolean writeOnce(String tenant) {
    List<TestCluster.Node> nodes = cluster.nodes();
    TestCluster.Node node = nodes.get(Math.floorMod(target, nodes.size()));
    try {
      // Like a real client: a node that does not answer within a few seconds is given up on.
      Http.Reply reply =
          node.http()
              .withTimeout(REQUEST_TIMEOUT)
              .put("/v1/tenants/" + tenant, Http.tenant(tenant, "load"));
      if (reply.status() == 200 || reply.status() == 201) {
        synchronized (acks) {
          acks.add(new Ack(tenant, reply.version(), node.id, System.nanoTime()));
        }
        return true;
      }
      refusals++;
      follow(reply.raw(), nodes);
    } catch (RuntimeException unreachable) {
      refusals++;
      target++;
    }
    return false;
  }

  private void follow(HttpResponse<String> response, List<TestCluster.Node> nodes) {
    var location = response.headers().firstValue("Location");
    if (location.isEmpty()) {
      target++;
      return;
    }
    for (int i = 0; i < nodes.size(); i++) {
      if (location.get().startsWith(nodes.get(i).httpUrl() + "/")) {
        target = i;
        return;
      }
    }
    target++;
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  public List<Ack> acks() {
    synchronized (acks) {
      return new ArrayList<>(acks);
    }
  }

  /** Waits until at least {@code count} more writes than now are acknowledged. */
  public void awaitMoreAcks(int count, java.time.Duration timeout) throws InterruptedException {
    int goal = acks().size() + count;
    long deadline = System.nanoTime() + timeout.toNanos();
    while (acks().size() < goal) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "only " + acks().size() + " of " + goal + " writes acknowledged after " + timeout);
      }
      Thread.sleep(20);
    }
  }

  /**
   * The first write acknowledged after {@code nanos} by a node other than {@code excluded} (a write
   * the killed leader committed just before dying may be acknowledged after the kill started).
   */
  public java.util.Optional<Ack> firstAckAfter(long nanos, String excluded) {
    return acks().stream()
        .filter(a -> a.atNanos() > nanos && !a.node().equals(excluded))
        .findFirst();
  }

  /**
   * Waits until a write after {@code nanos} was acknowledged by a node other than {@code excluded}.
   */
  public Ack awaitAckAfter(long nanos, String excluded, java.time.Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      var ack = firstAckAfter(nanos, excluded);
      if (ack.isPresent()) {
        return ack.get();
      }
      Thread.sleep(10);
    }
    throw new AssertionError(
        "no write acknowledged by a node other than " + excluded + " within " + timeout);
  }

  /**
   * The longest time between two consecutive acknowledgements with the later one after {@code
   * fromNanos} and the earlier one before {@code toNanos}: how long writers waited at most.
   */
  public long longestGapMillis(long fromNanos, long toNanos) {
    List<Ack> all = acks();
    long longest = 0;
    for (int i = 1; i < all.size(); i++) {
      Ack before = all.get(i - 1);
      Ack after = all.get(i);
      if (after.atNanos() > fromNanos && before.atNanos() < toNanos) {
        longest = Math.max(longest, after.atNanos() - before.atNanos());
      }
    }
    return longest / 1_000_000;
  }

  public long refusals() {
    return refusals;
  }

  @Override
  public void close() throws InterruptedException {
    running.set(false);
    thread.join(60_000);
  }
}
