package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.it.support.ElectionCluster;
import dev.controlplane.it.support.Partition;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Cold starts of a 3-node cluster, the way operators start one: all at once, in any order, with
 * fresh Raft data. Each node is the product's election layer in a JVM of its own ({@link
 * dev.controlplane.it.support.ElectionNode}), so a cold start of the cluster takes seconds instead
 * of a minute of the suite's two cores; ClusterIT starts whole servers the same way. Ten rounds per
 * run (twenty until the suite neared CI's 30 minutes): every run draws new orders and delays, so
 * the runs add up; {@code -Dit.election.rounds=N -Dit.election.seed=S} soaks or replays one plan.
 */
class LeaderElectionIT {

  private static final int ROUNDS = Integer.getInteger("it.election.rounds", 10);
  private static final long MAX_DELAY_MILLIS = Long.getLong("it.election.max.delay", 5_000);
  private static final long AGREEMENT_MILLIS = 15_000;
  private static final long RECOVERY_TARGET_MILLIS = 5_000;

  @Test
  void everyNodeNamesTheSameLeaderWithinFifteenSecondsOfTheLastStartInAnyStartOrder()
      throws Exception {
    long seed = Long.getLong("it.election.seed", System.nanoTime());
    Random random = new Random(seed);
    List<Long> agreedAfter = new ArrayList<>();
    for (int round = 1; round <= ROUNDS; round++) {
      try (ElectionCluster cluster = ElectionCluster.create("election-r" + round, 3)) {
        List<String> order = new ArrayList<>(cluster.ids());
        Collections.shuffle(order, random);
        long[] delays = new long[order.size()];
        for (int i = 0; i < delays.length; i++) {
          delays[i] = (long) (random.nextDouble() * MAX_DELAY_MILLIS);
        }
        java.util.Arrays.sort(delays);
        long t0 = System.nanoTime();
        for (int i = 0; i < order.size(); i++) {
          sleepUntil(t0, delays[i]);
          cluster.start(order.get(i));
        }
        long lastStart = System.nanoTime();
        Optional<String> leader = awaitAgreement(cluster, lastStart);
        long millis = (System.nanoTime() - lastStart) / 1_000_000;
        String plan = order + " at " + java.util.Arrays.toString(delays) + " ms";
        assertThat(leader)
            .as(
                "round %d (seed %d, starts %s): no single agreed leader %d ms after the last start:"
                    + " %s%n%s",
                round, seed, plan, millis, cluster.describe(), tails(cluster))
            .isPresent();
        agreedAfter.add(millis);
        System.out.printf(
            "cold start %2d: %s -> leader %s agreed by all %d ms after the last start%n",
            round, plan, leader.get(), millis);
      }
    }
    Collections.sort(agreedAfter);
    System.out.printf(
        "cold starts: %d, agreement after the last start: median %d ms, max %d ms (seed %d)%n",
        ROUNDS, agreedAfter.get(agreedAfter.size() / 2), agreedAfter.get(ROUNDS - 1), seed);
  }

  @Test
  void aLeaderCutOffByAPartitionIsReplacedAndAfterTheHealEveryNodeNamesOneLeader()
      throws Exception {
    int cycles = Integer.getInteger("it.election.partitions", 5);
    List<Long> replacements = new ArrayList<>();
    try (ElectionCluster cluster = ElectionCluster.create("partition", 3)) {
      for (String id : cluster.ids()) {
        cluster.start(id);
      }
      String leader = awaitAgreement(cluster, cluster.ids(), System.nanoTime()).orElseThrow();
      for (int cycle = 1; cycle <= cycles; cycle++) {
        List<String> majority = new ArrayList<>(cluster.ids());
        majority.remove(leader);
        long cut = System.nanoTime();
        String next;
        long lastDoubleLeader = -1;
        try (Partition partition = Partition.isolate(ElectionCluster.clusterAddress(leader))) {
          next = awaitAgreement(cluster, majority, cut).orElse(null);
          long replacedAfter = millisSince(cut);
          int cycleNo = cycle;
          String cutOff = leader;
          assertThat(next)
              .as(
                  () ->
                      String.format(
                          "cycle %d: the majority elects a leader without %s: %s%n%s",
                          cycleNo, cutOff, cluster.describe(), tails(cluster)))
              .isNotNull()
              .isNotEqualTo(leader);
          System.out.printf(
              "partition %d: %s cut off, %s leads the majority after %d ms%n",
              cycle, leader, next, replacedAfter);
          // The spec's recovery target after the loss of a leader: under 5 s. With the default
          // 3 s failure timeout a cut-off leader is replaced in about 4 s.
          assertThat(replacedAfter)
              .as(
                  () ->
                      String.format(
                          "cycle %d: ms from cutting off %s until the majority agreed: %s%n%s",
                          cycleNo, cutOff, cluster.describe(), tails(cluster)))
              .isLessThan(RECOVERY_TARGET_MILLIS);
          replacements.add(replacedAfter);
          // While cut off, the old leader must stop calling itself leader.
          long until = System.nanoTime() + 3_000_000_000L;
          while (System.nanoTime() < until) {
            long leaders =
                cluster.statuses().values().stream()
                    .filter(s -> s.path("role").asText().equals("leader"))
                    .count();
            if (leaders > 1) {
              lastDoubleLeader = millisSince(cut);
            }
            Thread.sleep(50);
          }
          assertThat(cluster.status(leader).orElseThrow().path("role").asText())
              .as("cycle %d: %s, cut off from the majority, still reports", cycle, leader)
              .isNotEqualTo("leader");
        }
        long healed = System.nanoTime();
        Optional<String> agreed = awaitAgreement(cluster, cluster.ids(), healed);
        assertThat(agreed)
            .as("cycle %d: after the heal: %s%n%s", cycle, cluster.describe(), tails(cluster))
            .contains(next);
        System.out.printf(
            "partition %d healed: all three name %s after %d ms (two leaders last seen %d ms after"
                + " the cut)%n",
            cycle, next, millisSince(healed), lastDoubleLeader);
        leader = next;
      }
    }
    Collections.sort(replacements);
    System.out.printf(
        "partitions: %d, leader replaced after: median %d ms, max %d ms%n",
        cycles, replacements.get(cycles / 2), replacements.get(cycles - 1));
  }

  private static long millisSince(long nanos) {
    return (System.nanoTime() - nanos) / 1_000_000;
  }

  private static Optional<String> awaitAgreement(ElectionCluster cluster, long since)
      throws InterruptedException {
    return awaitAgreement(cluster, cluster.ids(), since);
  }

  private static Optional<String> awaitAgreement(
      ElectionCluster cluster, List<String> among, long since) throws InterruptedException {
    while ((System.nanoTime() - since) / 1_000_000 < AGREEMENT_MILLIS) {
      Optional<String> leader = cluster.agreedLeader(among);
      if (leader.isPresent()) {
        return leader;
      }
      Thread.sleep(100);
    }
    return cluster.agreedLeader(among);
  }

  private static void sleepUntil(long t0, long offsetMillis) throws InterruptedException {
    long wait = offsetMillis - (System.nanoTime() - t0) / 1_000_000;
    if (wait > 0) {
      Thread.sleep(wait);
    }
  }

  private static String tails(ElectionCluster cluster) {
    StringBuilder out = new StringBuilder();
    for (String id : cluster.ids()) {
      out.append("--- ").append(id).append('\n').append(cluster.logTail(id)).append('\n');
    }
    return out.toString();
  }
}
