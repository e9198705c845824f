package dev.controlplane.bench;

import dev.controlplane.it.support.LostWrites;
import dev.controlplane.it.support.TestCluster;
import dev.controlplane.it.support.TestCluster.Node;
import dev.controlplane.it.support.WriteLoad;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Kills the leader of a 3-node cluster with {@code kill -9} while a client writes continuously,
 * {@code bench.kills} times (default 20), and prints the recovery time (kill to the first write
 * acknowledged by the new leader) as p50/p99/max and the number of acknowledged writes lost (must
 * be 0). The killed node is restarted before the next round so the cluster always has a quorum. Run
 * it with scripts/benchmark-failover.
 */
public final class FailoverBenchmark {

  private FailoverBenchmark() {}

  public static void main(String[] args) throws Exception {
    int kills = Integer.getInteger("bench.kills", 20);
    int lost;
    Duration wait = Duration.ofSeconds(240);
    try (TestCluster cluster = TestCluster.start("failover-bench", 3, Map.of())) {
      WriteLoad load = new WriteLoad(cluster, "bench").start();
      List<Long> recoveries = new ArrayList<>();
      List<Long> elections = new ArrayList<>();
      for (int round = 1; round <= kills; round++) {
        Node leader = cluster.awaitLeader(cluster.nodes(), wait);
        load.awaitMoreAcks(20, wait);
        long killedAt = System.nanoTime();
        leader.kill();
        Node next = cluster.awaitLeader(cluster.others(leader), wait);
        elections.add((System.nanoTime() - killedAt) / 1_000_000);
        long recovery =
            (load.awaitAckAfter(killedAt, leader.id, wait).atNanos() - killedAt) / 1_000_000;
        recoveries.add(recovery);
        System.out.printf(
            "round %2d: killed %s, new leader %s seen after %d ms, first acknowledged write after %d ms%n",
            round, leader.id, next.id, elections.get(elections.size() - 1), recovery);
        leader.start().awaitReady(wait);
      }
      load.close();
      List<WriteLoad.Ack> acks = load.acks();
      lost = LostWrites.find(TestCluster.dbUrl(), "bench", acks).size();
      System.out.println();
      System.out.printf("leader kills                      %d%n", kills);
      System.out.printf("recovery (kill -> first ack) ms   %s%n", summary(recoveries));
      System.out.printf("new leader observed ms            %s%n", summary(elections));
      System.out.printf("acknowledged writes               %d%n", acks.size());
      System.out.printf("lost acknowledged writes          %d%n", lost);
    }
    // Only after the cluster is closed: System.exit inside the try would leave the nodes running.
    System.exit(lost == 0 ? 0 : 1);
  }

  private static String summary(List<Long> values) {
    List<Long> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    return String.format(
        "p50 %d  p99 %d  max %d  (min %d)",
        rank(sorted, 0.50), rank(sorted, 0.99), sorted.get(sorted.size() - 1), sorted.get(0));
  }

  /** Nearest-rank percentile. */
  private static long rank(List<Long> sorted, double p) {
    int index = (int) Math.ceil(p * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
  }
}
