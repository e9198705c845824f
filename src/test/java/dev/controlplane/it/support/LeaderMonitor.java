package dev.controlplane.it.support;

import java.util.ArrayList;
import java.util.List;

/**
 * Watches every node's readiness (one thread per node, every 100 ms) and records the intervals in
 * which each node certainly reported role {@code leader}, so a test can find the moments two nodes
 * both claimed to lead. A node that does not answer (dead, frozen) is not counted as claiming.
 *
 * <p>An answer says what the node was at some instant between sending the request and receiving the
 * answer. So a run of answers saying {@code leader} proves that the node led from the receipt of
 * the first to the sending of the last, and no more: extending the interval to the next answer that
 * says otherwise would report an overlap at every clean handover, whenever the successor was polled
 * before the predecessor.
 */
public final class LeaderMonitor implements AutoCloseable {

  /** Two nodes claimed leadership at once from {@code fromNanos} to {@code toNanos}. */
  public record Overlap(String first, String second, long fromNanos, long toNanos) {}

  private record Claim(String node, long fromNanos, long toNanos) {}

  private final List<Claim> claims = new ArrayList<>();
  private final List<Thread> threads = new ArrayList<>();
  private volatile boolean running = true;

  public LeaderMonitor(TestCluster cluster) {
    for (TestCluster.Node node : cluster.nodes()) {
      Thread t = new Thread(() -> watch(node), "leader-monitor-" + node.id);
      t.setDaemon(true);
      threads.add(t);
      t.start();
    }
  }

  private void watch(TestCluster.Node node) {
    long since = -1;
    long lastSent = -1;
    while (running) {
      long sent = System.nanoTime();
      boolean leads =
          node.readiness().map(d -> d.path("role").asText().equals("leader")).orElse(false);
      long received = System.nanoTime();
      if (leads) {
        if (since < 0) {
          since = received;
        }
        lastSent = sent;
      } else if (since >= 0) {
        record(node.id, since, lastSent);
        since = -1;
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        break;
      }
    }
    if (since >= 0) {
      record(node.id, since, lastSent);
    }
  }

  private synchronized void record(String node, long from, long to) {
    claims.add(new Claim(node, from, to));
  }

  /** Every interval in which two different nodes both reported role leader (closed claims only). */
  public synchronized List<Overlap> overlaps() {
    List<Overlap> out = new ArrayList<>();
    for (int i = 0; i < claims.size(); i++) {
      for (int j = i + 1; j < claims.size(); j++) {
        Claim a = claims.get(i);
        Claim b = claims.get(j);
        long from = Math.max(a.fromNanos(), b.fromNanos());
        long to = Math.min(a.toNanos(), b.toNanos());
        if (!a.node().equals(b.node()) && from < to) {
          out.add(new Overlap(a.node(), b.node(), from, to));
        }
      }
    }
    return out;
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    for (Thread t : threads) {
      t.join(5_000);
    }
  }
}
