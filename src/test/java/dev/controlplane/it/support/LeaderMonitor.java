package dev.controlplane.it.support;

import java.util.ArrayList;
import java.util.List;

/**
 * Watches every node's readiness (one thread per node, every 100 ms) and records the intervals in
 * which each node reported role {@code leader}, so a test can find the moments two nodes both
 * claimed to lead. A node that does not answer (dead, frozen) is not counted as claiming.
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
    while (running) {
      boolean leads =
          node.readiness().map(d -> d.path("role").asText().equals("leader")).orElse(false);
      long now = System.nanoTime();
      if (leads && since < 0) {
        since = now;
      } else if (!leads && since >= 0) {
        record(node.id, since, now);
        since = -1;
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        return;
      }
    }
    if (since >= 0) {
      record(node.id, since, System.nanoTime());
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
