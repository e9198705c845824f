package dev.controlplane.bench;

import dev.controlplane.it.support.LostWrites;
import dev.controlplane.it.support.PgPair;
import dev.controlplane.it.support.TestCluster;
import dev.controlplane.it.support.TestCluster.Node;
import dev.controlplane.it.support.WriteLoad;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Failover under write load on the production deployment: a 3-node cluster against a PostgreSQL
 * primary with a synchronous standby. It kills the leader with {@code kill -9} {@code bench.kills}
 * times (default 50; the killed node is restarted before the next round), stops it as an
 * orchestrator does (SIGTERM) {@code bench.stops} times (default 10), and fails the database over
 * {@code bench.db.failovers} times (default 10: crash the primary, promote the standby, rebuild the
 * old primary as the new standby), while a client writes continuously. For each kind it prints the
 * recovery time (fault to the first write acknowledged afterwards) as p50/p99/max and the
 * acknowledged writes lost (must be 0; the command exits 1 otherwise). Run it with
 * scripts/benchmark-failover.
 */
public final class FailoverBenchmark {

  private static final Duration WAIT = Duration.ofSeconds(240);

  private FailoverBenchmark() {}

  public static void main(String[] args) throws Exception {
    int kills = Integer.getInteger("bench.kills", 50);
    int stops = Integer.getInteger("bench.stops", 10);
    int failovers = Integer.getInteger("bench.db.failovers", 10);
    int lost;
    try (PgPair db = PgPair.create("failover_bench");
        TestCluster cluster = TestCluster.start("failover-bench", 3, Map.of(), db.serviceUrl())) {
      WriteLoad load = new WriteLoad(cluster, "bench").start();
      List<Long> killRecoveries = new ArrayList<>();
      List<Long> elections = new ArrayList<>();
      List<Long> rejoins = new ArrayList<>();
      List<Long> serving = new ArrayList<>();
      for (int round = 1; round <= kills; round++) {
        Node leader = cluster.awaitLeader(cluster.nodes(), WAIT);
        load.awaitMoreAcks(20, WAIT);
        long killedAt = System.nanoTime();
        leader.kill();
        Node next = cluster.awaitLeader(cluster.others(leader), WAIT);
        elections.add(millisSince(killedAt));
        long recovery = millis(load.awaitAckAfter(killedAt, leader.id, WAIT).atNanos() - killedAt);
        killRecoveries.add(recovery);
        long restarted = System.nanoTime();
        leader.start();
        long answering = awaitAnswering(leader);
        serving.add(millis(answering - restarted));
        leader.awaitReady(WAIT);
        cluster.awaitLeader(cluster.nodes(), WAIT);
        rejoins.add(millisSince(answering));
        System.out.printf(
            "kill %2d: %s killed, %s leads after %d ms, first acknowledged write after %d ms;"
                + " restarted node serving after %d ms, ready and agreeing %d ms later%n",
            round,
            leader.id,
            next.id,
            elections.get(round - 1),
            recovery,
            serving.get(round - 1),
            rejoins.get(round - 1));
      }
      List<Long> stopRecoveries = new ArrayList<>();
      List<Long> stopElections = new ArrayList<>();
      List<Long> stopExits = new ArrayList<>();
      for (int round = 1; round <= stops; round++) {
        Node leader = cluster.awaitLeader(cluster.nodes(), WAIT);
        load.awaitMoreAcks(20, WAIT);
        long stoppedAt = System.nanoTime();
        leader.terminate();
        Node next = cluster.awaitLeader(cluster.others(leader), WAIT);
        stopElections.add(millisSince(stoppedAt));
        long recovery =
            millis(load.awaitAckAfter(stoppedAt, leader.id, WAIT).atNanos() - stoppedAt);
        stopRecoveries.add(recovery);
        int exit = leader.awaitStopped(WAIT);
        stopExits.add(millisSince(stoppedAt));
        leader.start();
        leader.awaitReady(WAIT);
        cluster.awaitLeader(cluster.nodes(), WAIT);
        System.out.printf(
            "stop %2d: %s sent SIGTERM, %s leads after %d ms, first acknowledged write after %d ms;"
                + " the stopped JVM exited (code %d) after %d ms%n",
            round,
            leader.id,
            next.id,
            stopElections.get(round - 1),
            recovery,
            exit,
            stopExits.get(round - 1));
      }
      List<Long> dbRecoveries = new ArrayList<>();
      List<Long> afterPromotion = new ArrayList<>();
      for (int round = 1; round <= failovers; round++) {
        load.awaitMoreAcks(20, WAIT);
        String old = db.primaryName();
        long crashedAt = System.nanoTime();
        db.failOver();
        long promotedAt = System.nanoTime();
        // An ack right after crashedAt may be a write the old primary committed before the crash
        // took effect, so the outage ends with the first ack after the promotion.
        long firstAfterPromotion = load.awaitAckAfter(promotedAt, "", WAIT).atNanos();
        long recovery = millis(firstAfterPromotion - crashedAt);
        long sincePromotion = millis(firstAfterPromotion - promotedAt);
        dbRecoveries.add(recovery);
        afterPromotion.add(sincePromotion);
        System.out.printf(
            "database failover %2d: %s crashed, %s promoted after %d ms, first acknowledged write"
                + " after the promotion %d ms after the crash (%d ms after the promotion)%n",
            round, old, db.primaryName(), millis(promotedAt - crashedAt), recovery, sincePromotion);
        db.attachStandby();
      }
      load.awaitMoreAcks(20, WAIT);
      load.close();
      List<WriteLoad.Ack> acks = load.acks();
      lost = LostWrites.find(db.primaryUrl(), "bench", acks).size();
      System.out.println();
      System.out.printf("leader kills                          %d%n", kills);
      System.out.printf("  recovery (kill -> first ack) ms     %s%n", summary(killRecoveries));
      System.out.printf("  new leader agreed ms                %s%n", summary(elections));
      System.out.printf("  restart -> application serving ms   %s%n", summary(serving));
      System.out.printf("  serving -> ready, leader agreed ms  %s%n", summary(rejoins));
      System.out.printf("leader stops (SIGTERM)                %d%n", stops);
      System.out.printf("  recovery (signal -> first ack) ms   %s%n", summary(stopRecoveries));
      System.out.printf("  new leader agreed ms                %s%n", summary(stopElections));
      System.out.printf("  signal -> JVM exited ms             %s%n", summary(stopExits));
      System.out.printf("database failovers                    %d%n", failovers);
      System.out.printf(
          "  recovery (crash -> first ack on new primary) ms %s%n", summary(dbRecoveries));
      System.out.printf("  promotion -> first ack ms           %s%n", summary(afterPromotion));
      System.out.printf("acknowledged writes                   %d%n", acks.size());
      System.out.printf("lost acknowledged writes              %d%n", lost);
    }
    // Only after the cluster is closed: System.exit inside the try would leave the nodes running.
    System.exit(lost == 0 ? 0 : 1);
  }

  /** Waits until the restarted node's application answers HTTP at all (ready or not). */
  private static long awaitAnswering(Node node) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (node.readiness().isEmpty()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(node + " does not answer after " + WAIT);
      }
      Thread.sleep(50);
    }
    return System.nanoTime();
  }

  private static long millis(long nanos) {
    return nanos / 1_000_000;
  }

  private static long millisSince(long nanos) {
    return millis(System.nanoTime() - nanos);
  }

  private static String summary(List<Long> values) {
    if (values.isEmpty()) {
      return "-";
    }
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
