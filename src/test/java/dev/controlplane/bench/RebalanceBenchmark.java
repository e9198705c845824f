package dev.controlplane.bench;

import dev.controlplane.broker.PlacementPlanner;
import dev.controlplane.broker.rebalance.RebalancePlanner;
import dev.controlplane.broker.rebalance.Strategy;
import dev.controlplane.metadata.model.Broker;
import dev.controlplane.metadata.model.ShardPlacement;
import dev.controlplane.metadata.model.ShardPlacement.ShardAssignment;
import dev.controlplane.write.BrokerLoad;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rebalance planner alone, without the server, the database or gRPC: the same cluster as the
 * spine benchmark's rebalance rounds (10,000 streams × 16 shards × 3 replicas placed on 100 brokers
 * in 3 zones of one region), then 10 brokers added (in two regions), then 5 drained. Prints each
 * strategy's moves, planning time, and the spread of the result, so planner changes can be measured
 * in seconds instead of the full run's minutes.
 */
public final class RebalanceBenchmark {

  private static final int STREAMS = Integer.getInteger("bench.streams", 10_000);
  private static final int SHARDS = Integer.getInteger("bench.shards", 16);
  private static final int BROKERS = Integer.getInteger("bench.brokers", 100);
  private static final int ROUNDS = Integer.getInteger("bench.rounds", 3);

  private RebalanceBenchmark() {}

  public static void main(String[] args) {
    List<Broker> brokers = new ArrayList<>();
    for (int b = 0; b < BROKERS; b++) {
      brokers.add(broker(b, "r1", Broker.Status.ACTIVE));
    }
    long start = System.nanoTime();
    List<ShardPlacement> placements = placeStreams(brokers);
    System.out.printf(
        "placed %,d streams × %d shards × 3 replicas on %d brokers in %.1f s%n",
        STREAMS, SHARDS, BROKERS, (System.nanoTime() - start) / 1e9);
    for (int b = BROKERS; b < BROKERS + 10; b++) {
      brokers.add(broker(b, "r" + (b % 2), Broker.Status.ACTIVE));
    }
    round(brokers, placements, "after adding 10 brokers");
    for (int b = 0; b < 5; b++) {
      brokers.set(b, brokers.get(b).withStatus(Broker.Status.DRAINING));
    }
    round(brokers, placements, "after draining 5 brokers");
  }

  private static Broker broker(int b, String region, Broker.Status status) {
    return new Broker(
        String.format("broker-%03d", b),
        "10.2.0." + b + ":7000",
        region,
        "z" + (b % 3),
        Broker.Capacity.UNLIMITED,
        status,
        0);
  }

  private static List<ShardPlacement> placeStreams(List<Broker> brokers) {
    Map<String, int[]> load = new HashMap<>();
    List<ShardPlacement> out = new ArrayList<>(STREAMS);
    for (int s = 0; s < STREAMS; s++) {
      List<BrokerLoad> candidates =
          brokers.stream()
              .map(
                  b -> {
                    int[] l = load.getOrDefault(b.name(), new int[2]);
                    return new BrokerLoad(b, l[0], l[1]);
                  })
              .toList();
      List<ShardAssignment> shards = PlacementPlanner.placeShards(SHARDS, 3, candidates);
      for (ShardAssignment a : shards) {
        a.replicas().forEach(r -> load.computeIfAbsent(r, k -> new int[2])[0]++);
        load.computeIfAbsent(a.leader(), k -> new int[2])[1]++;
      }
      out.add(new ShardPlacement("bench", "ns" + (s % 100), "s" + s, shards, 0));
    }
    return out;
  }

  private static void round(List<Broker> brokers, List<ShardPlacement> placements, String when) {
    for (Strategy strategy : Strategy.values()) {
      RebalancePlanner.Plan plan = null;
      double best = Double.MAX_VALUE;
      for (int i = 0; i < ROUNDS; i++) {
        long start = System.nanoTime();
        plan = RebalancePlanner.plan(strategy, brokers, placements, p -> true);
        best = Math.min(best, (System.nanoTime() - start) / 1e6);
      }
      long leadership = plan.moves().size() - plan.replicaMoves();
      System.out.printf(
          "%-17s %s: %,d replica moves + %,d leadership moves, planned in %,.0f ms (best of %d);"
              + " %s%n",
          strategy,
          when,
          plan.replicaMoves(),
          leadership,
          best,
          ROUNDS,
          spread(brokers, placements, plan));
    }
  }

  /** Replica and leader counts per active broker, and shards whose replicas share a zone. */
  private static String spread(
      List<Broker> brokers, List<ShardPlacement> placements, RebalancePlanner.Plan plan) {
    Map<String, Broker> byName = new HashMap<>();
    brokers.forEach(b -> byName.put(b.name(), b));
    Map<String, Integer> replicas = new HashMap<>();
    Map<String, Integer> leaders = new HashMap<>();
    int sharedZone = 0;
    int oneRegion = 0;
    for (ShardPlacement p : placements) {
      for (ShardAssignment a : plan.changedPlacements().getOrDefault(p.ref(), p.placements())) {
        a.replicas().forEach(r -> replicas.merge(r, 1, Integer::sum));
        leaders.merge(a.leader(), 1, Integer::sum);
        Set<String> zones = new HashSet<>();
        Set<String> regions = new HashSet<>();
        a.replicas()
            .forEach(
                r -> {
                  zones.add(byName.get(r).availabilityZone());
                  regions.add(byName.get(r).region());
                });
        sharedZone += zones.size() < a.replicas().size() ? 1 : 0;
        oneRegion += regions.size() == 1 ? 1 : 0;
      }
    }
    List<Broker> active = brokers.stream().filter(b -> b.status() == Broker.Status.ACTIVE).toList();
    var r = active.stream().mapToInt(b -> replicas.getOrDefault(b.name(), 0)).summaryStatistics();
    var l = active.stream().mapToInt(b -> leaders.getOrDefault(b.name(), 0)).summaryStatistics();
    return String.format(
        "replicas/broker %d..%d, leaders/broker %d..%d, shards sharing a zone %d, in one region %d",
        r.getMin(), r.getMax(), l.getMin(), l.getMax(), sharedZone, oneRegion);
  }
}
