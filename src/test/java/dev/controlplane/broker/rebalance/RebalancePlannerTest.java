package dev.controlplane.broker.rebalance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.broker.BrokerLoad;
import dev.controlplane.broker.PlacementPlanner;
import dev.controlplane.metadata.model.Broker;
import dev.controlplane.metadata.model.ShardPlacement;
import dev.controlplane.metadata.model.ShardPlacement.ShardAssignment;
import dev.controlplane.metadata.model.StreamRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Invariants of rebalance plans on many random clusters. */
class RebalancePlannerTest {

  private record Cluster(List<Broker> brokers, List<ShardPlacement> placements) {}

  /** Places streams on a cluster, then adds brokers and drains some, as operators do. */
  private static Cluster randomCluster(Random random) {
    int zones = 1 + random.nextInt(4);
    List<Broker> brokers = new ArrayList<>();
    int initial = 3 + random.nextInt(12);
    for (int i = 0; i < initial; i++) {
      brokers.add(broker("b" + i, "z" + (i % zones), Broker.Status.ACTIVE));
    }
    List<ShardPlacement> placements = new ArrayList<>();
    int streams = 1 + random.nextInt(30);
    for (int s = 0; s < streams; s++) {
      int rf = 1 + random.nextInt(Math.min(3, initial));
      List<BrokerLoad> load = load(brokers, placements);
      var shards = PlacementPlanner.placeShards(1 + random.nextInt(16), rf, load);
      placements.add(new ShardPlacement("t", "n", "s" + s, shards, 0));
    }
    int added = random.nextInt(6);
    for (int i = 0; i < added; i++) {
      brokers.add(broker("new" + i, "z" + random.nextInt(zones), Broker.Status.ACTIVE));
    }
    for (int i = 0; i < brokers.size(); i++) {
      if (random.nextInt(8) == 0) {
        brokers.set(
            i,
            brokers
                .get(i)
                .withStatus(random.nextBoolean() ? Broker.Status.DRAINING : Broker.Status.DOWN));
      }
    }
    return new Cluster(brokers, placements);
  }

  private static Broker broker(String name, String zone, Broker.Status status) {
    return new Broker(
        name, "h:1", "r" + zone.hashCode() % 2, zone, Broker.Capacity.UNLIMITED, status, 0);
  }

  private static List<BrokerLoad> load(List<Broker> brokers, List<ShardPlacement> placements) {
    Map<String, int[]> counts = new HashMap<>();
    for (ShardPlacement p : placements) {
      for (ShardAssignment a : p.placements()) {
        a.replicas().forEach(r -> counts.computeIfAbsent(r, k -> new int[2])[0]++);
        counts.computeIfAbsent(a.leader(), k -> new int[2])[1]++;
      }
    }
    return brokers.stream()
        .map(
            b ->
                new BrokerLoad(
                    b,
                    counts.getOrDefault(b.name(), new int[2])[0],
                    counts.getOrDefault(b.name(), new int[2])[1]))
        .toList();
  }

  private static Map<StreamRef, List<ShardAssignment>> apply(
      Cluster c, RebalancePlanner.Plan plan) {
    Map<StreamRef, List<ShardAssignment>> out = new HashMap<>();
    c.placements().forEach(p -> out.put(p.ref(), p.placements()));
    out.putAll(plan.changedPlacements());
    return out;
  }

  private static Map<String, Integer> replicaCounts(
      Map<StreamRef, List<ShardAssignment>> layout, boolean leaders) {
    Map<String, Integer> counts = new HashMap<>();
    layout
        .values()
        .forEach(
            list ->
                list.forEach(
                    a -> {
                      if (leaders) {
                        counts.merge(a.leader(), 1, Integer::sum);
                      } else {
                        a.replicas().forEach(r -> counts.merge(r, 1, Integer::sum));
                      }
                    }));
    return counts;
  }

  @Test
  void everyStrategyKeepsShardsWholeEmptiesDrainingAndDownBrokersAndEvensOutReplicas() {
    for (int seed = 0; seed < 300; seed++) {
      Random random = new Random(seed);
      Cluster c = randomCluster(random);
      List<String> active =
          c.brokers().stream()
              .filter(b -> b.status() == Broker.Status.ACTIVE)
              .map(Broker::name)
              .toList();
      if (active.size() < 3) {
        continue;
      }
      for (Strategy strategy : Strategy.values()) {
        var plan = RebalancePlanner.plan(strategy, c.brokers(), c.placements(), p -> true);
        var after = apply(c, plan);
        for (ShardPlacement before : c.placements()) {
          List<ShardAssignment> now = after.get(before.ref());
          assertThat(now).hasSameSizeAs(before.placements());
          for (int i = 0; i < now.size(); i++) {
            ShardAssignment a = now.get(i);
            assertThat(a.replicas())
                .as("seed %d %s", seed, strategy)
                .hasSameSizeAs(before.placements().get(i).replicas())
                .doesNotHaveDuplicates();
            assertThat(a.replicas()).contains(a.leader());
            assertThat(a.replicas())
                .as("no replica left on a draining or down broker")
                .allMatch(active::contains);
          }
        }
        Map<String, Integer> counts = replicaCounts(after, false);
        int max = active.stream().mapToInt(b -> counts.getOrDefault(b, 0)).max().orElse(0);
        int min = active.stream().mapToInt(b -> counts.getOrDefault(b, 0)).min().orElse(0);
        if (strategy != Strategy.LOCALITY_AWARE) {
          assertThat(max - min)
              .as("seed %d %s replicas within one of each other", seed, strategy)
              .isLessThanOrEqualTo(1);
        }
        if (strategy != Strategy.BALANCED) {
          // A single-replica shard's leadership moves only with its data: MINIMIZE_MOVEMENT will
          // not
          // move data for it, and LOCALITY_AWARE's zone rules may forbid every swap. BALANCED may.
          continue;
        }
        Map<String, Integer> leaders = replicaCounts(after, true);
        int shards = after.values().stream().mapToInt(List::size).sum();
        int ceiling = (shards + active.size() - 1) / active.size();
        assertThat(active.stream().mapToInt(b -> leaders.getOrDefault(b, 0)).max().orElse(0))
            .as(
                "seed %d %s no broker leads more than one above the average: %s %s",
                seed, strategy, leaders, counts)
            .isLessThanOrEqualTo(ceiling + 1);
      }
    }
  }

  @Test
  void minimizeMovementMakesNoMoreReplicaMovesThanTheLowerBound() {
    for (int seed = 0; seed < 300; seed++) {
      Cluster c = randomCluster(new Random(seed));
      List<String> active =
          c.brokers().stream()
              .filter(b -> b.status() == Broker.Status.ACTIVE)
              .map(Broker::name)
              .toList();
      if (active.size() < 3) {
        continue;
      }
      var plan =
          RebalancePlanner.plan(Strategy.MINIMIZE_MOVEMENT, c.brokers(), c.placements(), p -> true);
      Map<String, Integer> before =
          replicaCounts(apply(c, new RebalancePlanner.Plan(List.of(), Map.of())), false);
      int evacuated =
          before.entrySet().stream()
              .filter(e -> !active.contains(e.getKey()))
              .mapToInt(Map.Entry::getValue)
              .sum();
      int total = before.values().stream().mapToInt(Integer::intValue).sum();
      int floor = total / active.size();
      int ceil = (total + active.size() - 1) / active.size();
      Map<String, Integer> afterEvacuation = new HashMap<>();
      active.forEach(b -> afterEvacuation.put(b, before.getOrDefault(b, 0)));
      int excess = afterEvacuation.values().stream().mapToInt(v -> Math.max(0, v - ceil)).sum();
      int deficit = afterEvacuation.values().stream().mapToInt(v -> Math.max(0, floor - v)).sum();
      // Evacuated replicas land on the least loaded brokers, which can only lower the later need.
      assertThat(plan.replicaMoves())
          .as("seed %d", seed)
          .isLessThanOrEqualTo(evacuated + Math.max(excess, deficit));
    }
  }

  @Test
  void localityAwareSpreadsEachShardOverDistinctZonesWhenThereAreEnough() {
    for (int seed = 0; seed < 300; seed++) {
      Cluster c = randomCluster(new Random(seed));
      Map<String, Broker> byName =
          c.brokers().stream().collect(Collectors.toMap(Broker::name, b -> b));
      Set<String> activeZones =
          c.brokers().stream()
              .filter(b -> b.status() == Broker.Status.ACTIVE)
              .map(Broker::availabilityZone)
              .collect(Collectors.toSet());
      var after =
          apply(
              c,
              RebalancePlanner.plan(
                  Strategy.LOCALITY_AWARE, c.brokers(), c.placements(), p -> true));
      for (List<ShardAssignment> shards : after.values()) {
        for (ShardAssignment a : shards) {
          if (a.replicas().size() <= activeZones.size()) {
            Set<String> zones = new HashSet<>();
            a.replicas().forEach(r -> zones.add(byName.get(r).availabilityZone()));
            assertThat(zones).as("seed %d shard %s", seed, a).hasSize(a.replicas().size());
          }
        }
      }
    }
  }

  @Test
  void onlyPlacementsInScopeMove() {
    Cluster c = randomCluster(new Random(7));
    var plan =
        RebalancePlanner.plan(
            Strategy.BALANCED, c.brokers(), c.placements(), p -> p.stream().equals("s0"));
    assertThat(plan.moves()).allMatch(m -> m.stream().stream().equals("s0"));
  }

  @Test
  void aBalancedClusterNeedsNoMoves() {
    List<Broker> brokers =
        List.of("a", "b", "c").stream()
            .map(
                n ->
                    new Broker(
                        n,
                        "h:1",
                        "r1",
                        "z-" + n,
                        Broker.Capacity.UNLIMITED,
                        Broker.Status.ACTIVE,
                        0))
            .toList();
    var shards = PlacementPlanner.placeShards(6, 2, load(brokers, List.of()));
    var placements = List.of(new ShardPlacement("t", "n", "s", shards, 0));
    for (Strategy strategy : Strategy.values()) {
      assertThat(RebalancePlanner.plan(strategy, brokers, placements, p -> true).moves())
          .as("%s", strategy)
          .isEmpty();
    }
  }
}
