package dev.controlplane.broker.rebalance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.broker.PlacementPlanner;
import dev.controlplane.metadata.model.Broker;
import dev.controlplane.metadata.model.ShardPlacement;
import dev.controlplane.metadata.model.ShardPlacement.ShardAssignment;
import dev.controlplane.metadata.model.StreamRef;
import dev.controlplane.write.BrokerLoad;
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

  private record Cluster(List<Broker> brokers, List<ShardPlacement> placements) {
    List<String> activeNames() {
      return brokers.stream()
          .filter(b -> b.status() == Broker.Status.ACTIVE)
          .map(Broker::name)
          .toList();
    }
  }

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
      List<String> active = c.activeNames();
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
      List<String> active = c.activeNames();
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
      // Evacuated replicas go to brokers below the average first, where they can only lower the
      // later need; above it only when no broker below can take the shard.
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

  /**
   * A cluster grown the way the benchmark grows one: streams placed on {@code brokers} brokers in 3
   * zones of region r1, then {@code added} brokers in region {@code addedRegion}.
   */
  private static Cluster grownCluster(int brokers, int streams, int added, String addedRegion) {
    List<Broker> all = new ArrayList<>();
    for (int b = 0; b < brokers; b++) {
      all.add(
          new Broker(
              "b" + b,
              "h:1",
              "r1",
              "z" + b % 3,
              Broker.Capacity.UNLIMITED,
              Broker.Status.ACTIVE,
              0));
    }
    List<ShardPlacement> placements = new ArrayList<>();
    for (int s = 0; s < streams; s++) {
      placements.add(
          new ShardPlacement(
              "t", "n", "s" + s, PlacementPlanner.placeShards(8, 3, load(all, placements)), 0));
    }
    for (int b = brokers; b < brokers + added; b++) {
      all.add(
          new Broker(
              "b" + b,
              "h:1",
              addedRegion,
              "z" + b % 3,
              Broker.Capacity.UNLIMITED,
              Broker.Status.ACTIVE,
              0));
    }
    return new Cluster(all, placements);
  }

  private static long shardsSharingAZone(Cluster c, Map<StreamRef, List<ShardAssignment>> after) {
    Map<String, String> zones =
        c.brokers().stream().collect(Collectors.toMap(Broker::name, Broker::availabilityZone));
    return after.values().stream()
        .flatMap(List::stream)
        .filter(a -> a.replicas().stream().map(zones::get).distinct().count() < a.replicas().size())
        .count();
  }

  @Test
  void leadershipsEvenOutThroughChainsOfSharedShardsWithEveryStrategy() {
    // Placement gives neighbouring brokers the same shards, so the broker leading most often shares
    // no shard with the one leading least: leaderships must be handed along a chain.
    Cluster c = grownCluster(50, 500, 5, "r1");
    for (int b = 0; b < 3; b++) {
      c.brokers().set(b, c.brokers().get(b).withStatus(Broker.Status.DRAINING));
    }
    List<String> active = c.activeNames();
    for (Strategy strategy : Strategy.values()) {
      var plan = RebalancePlanner.plan(strategy, c.brokers(), c.placements(), p -> true);
      Map<String, Integer> leaders = replicaCounts(apply(c, plan), true);
      var spread = active.stream().mapToInt(b -> leaders.getOrDefault(b, 0)).summaryStatistics();
      assertThat(spread.getMax() - spread.getMin())
          .as("%s leaders per broker %s", strategy, leaders)
          .isLessThanOrEqualTo(1);
    }
  }

  @Test
  void balancedAndMinimalRebalancesKeepShardsAcrossZonesWhenEvenLoadAllowsIt() {
    // 10 brokers added (4 in z1, 3 in z0 and z2) and 5 drained (2 in z0 and z1, 1 in z2): every
    // zone ends with 35 brokers, so even load and one replica per zone are both possible.
    Cluster c = grownCluster(100, 1000, 10, "r1");
    for (int b = 0; b < 5; b++) {
      c.brokers().set(b, c.brokers().get(b).withStatus(Broker.Status.DRAINING));
    }
    assertThat(shardsSharingAZone(c, apply(c, new RebalancePlanner.Plan(List.of(), Map.of()))))
        .isZero();
    for (Strategy strategy : Strategy.values()) {
      var plan = RebalancePlanner.plan(strategy, c.brokers(), c.placements(), p -> true);
      assertThat(shardsSharingAZone(c, apply(c, plan))).as("%s", strategy).isZero();
    }
  }

  @Test
  void localityAwareGivesANewRegionItsShareOfShardsWithoutOverloadingIt() {
    Cluster c = grownCluster(50, 500, 5, "r0");
    var plan =
        RebalancePlanner.plan(Strategy.LOCALITY_AWARE, c.brokers(), c.placements(), p -> true);
    var after = apply(c, plan);
    Map<String, Integer> replicas = replicaCounts(after, false);
    int total = replicas.values().stream().mapToInt(Integer::intValue).sum();
    int ceiling = (total + 54) / 55;
    List<String> newRegion = List.of("b50", "b51", "b52", "b53", "b54");
    int busiestOldBroker =
        replicas.entrySet().stream()
            .filter(e -> !newRegion.contains(e.getKey()))
            .mapToInt(Map.Entry::getValue)
            .max()
            .orElseThrow();
    // At least its share of the load, and never a hot spot: without the cap it would receive a
    // replica of every shard.
    assertThat(newRegion)
        .allSatisfy(b -> assertThat(replicas.get(b)).isBetween(ceiling - 1, busiestOldBroker));
    long spanningRegions =
        after.values().stream()
            .flatMap(List::stream)
            .filter(a -> a.replicas().stream().anyMatch(newRegion::contains))
            .count();
    assertThat(spanningRegions)
        .as("no shard has two replicas in the new region")
        .isEqualTo(newRegion.stream().mapToLong(replicas::get).sum());
    assertThat(shardsSharingAZone(c, after)).isZero();
  }

  @Test
  void onlyPlacementsInScopeMove() {
    Cluster c = randomCluster(new Random(7));
    var plan =
        RebalancePlanner.plan(
            Strategy.BALANCED, c.brokers(), c.placements(), p -> p.stream().equals("s0"));
    assertThat(plan.moves()).allMatch(m -> m.stream().stream().equals("s0"));
  }

  /**
   * Every active broker already holds a replica of each shard, so none can receive the draining or
   * down broker's: its replicas stay, but its leaderships go to active replicas, moving no data.
   */
  @Test
  void leadershipsLeaveADrainingOrDownBrokerEvenWhenItsReplicasCannot() {
    for (Broker.Status status : List.of(Broker.Status.DRAINING, Broker.Status.DOWN)) {
      List<Broker> brokers =
          List.of(
              broker("a", "z1", status),
              broker("b", "z2", Broker.Status.ACTIVE),
              broker("c", "z3", Broker.Status.ACTIVE));
      var shards =
          List.of(
              new ShardAssignment(0, "a", List.of("a", "b", "c")),
              new ShardAssignment(1, "a", List.of("a", "b", "c")));
      var placements = List.of(new ShardPlacement("t", "n", "s", shards, 0));
      for (Strategy strategy : Strategy.values()) {
        var plan = RebalancePlanner.plan(strategy, brokers, placements, p -> true);
        assertThat(plan.replicaMoves()).as("%s %s", status, strategy).isZero();
        assertThat(plan.changedPlacements().get(new StreamRef("t", "n", "s")))
            .as("%s %s", status, strategy)
            .hasSize(2)
            .allSatisfy(
                a -> {
                  assertThat(a.leader()).isIn("b", "c");
                  assertThat(a.replicas()).containsExactlyInAnyOrder("a", "b", "c");
                });
      }
    }
  }

  /**
   * d (draining, z1) holds a replica of S0 beside y (z2); x (z1) holds two one-replica streams, w
   * (z2) nothing. Moving S0's replica to x keeps it in two zones but leaves x with 3 of 4 replicas,
   * and evening out costs a second move; w takes it in one. MINIMIZE_MOVEMENT is the fewest moves,
   * preferring zones only among equally good ones; LOCALITY_AWARE keeps the zone.
   */
  @Test
  void emptyingADrainedBrokerPutsTheMoveCountBeforeZonesUnlessLocalityIsAsked() {
    List<Broker> brokers = drainedAndThreeActive();
    List<ShardPlacement> placements =
        List.of(
            new ShardPlacement("t", "n", "s0", List.of(shard("d", "y")), 0),
            new ShardPlacement("t", "n", "a", List.of(shard("x")), 0),
            new ShardPlacement("t", "n", "b", List.of(shard("x")), 0));
    StreamRef s0 = new StreamRef("t", "n", "s0");

    var minimal = RebalancePlanner.plan(Strategy.MINIMIZE_MOVEMENT, brokers, placements, p -> true);
    assertThat(minimal.replicaMoves()).isEqualTo(1);
    assertThat(minimal.changedPlacements().get(s0).get(0).replicas())
        .containsExactlyInAnyOrder("y", "w");

    var local = RebalancePlanner.plan(Strategy.LOCALITY_AWARE, brokers, placements, p -> true);
    assertThat(local.changedPlacements().get(s0).get(0).replicas())
        .containsExactlyInAnyOrder("x", "y");
  }

  /** x and w are both empty, so either costs the same; x is in a zone S0 does not use yet. */
  @Test
  void amongReceiversEquallyGoodForTheCountOneInAZoneTheShardDoesNotUseWins() {
    List<Broker> brokers = drainedAndThreeActive();
    List<ShardPlacement> placements =
        List.of(
            new ShardPlacement("t", "n", "s0", List.of(shard("d", "y")), 0),
            new ShardPlacement("t", "n", "a", List.of(shard("y")), 0));
    for (Strategy strategy : List.of(Strategy.MINIMIZE_MOVEMENT, Strategy.BALANCED)) {
      var plan = RebalancePlanner.plan(strategy, brokers, placements, p -> true);
      assertThat(plan.changedPlacements().get(new StreamRef("t", "n", "s0")).get(0).replicas())
          .as("%s", strategy)
          .contains("x");
    }
  }

  /**
   * d, draining, is the shard's only replica in region eu. x and z are both empty and in zones the
   * shard does not use; z keeps the shard in eu, x (first by name) would leave it in us alone.
   */
  @Test
  void amongReceiversEquallyGoodForCountAndZoneOneInARegionTheShardDoesNotUseWins() {
    List<Broker> brokers =
        List.of(
            new Broker(
                "d", "h:1", "eu", "eu-1", Broker.Capacity.UNLIMITED, Broker.Status.DRAINING, 0),
            new Broker(
                "y", "h:1", "us", "us-1", Broker.Capacity.UNLIMITED, Broker.Status.ACTIVE, 0),
            new Broker(
                "x", "h:1", "us", "us-2", Broker.Capacity.UNLIMITED, Broker.Status.ACTIVE, 0),
            new Broker(
                "z", "h:1", "eu", "eu-2", Broker.Capacity.UNLIMITED, Broker.Status.ACTIVE, 0));
    List<ShardPlacement> placements =
        List.of(new ShardPlacement("t", "n", "s0", List.of(shard("d", "y")), 0));
    for (Strategy strategy : Strategy.values()) {
      var plan = RebalancePlanner.plan(strategy, brokers, placements, p -> true);
      assertThat(plan.changedPlacements().get(new StreamRef("t", "n", "s0")).get(0).replicas())
          .as("%s", strategy)
          .containsExactlyInAnyOrder("y", "z");
    }
  }

  /** d draining and x active in zone z1; y and w active in z2. */
  private static List<Broker> drainedAndThreeActive() {
    return List.of(
        broker("d", "z1", Broker.Status.DRAINING),
        broker("x", "z1", Broker.Status.ACTIVE),
        broker("y", "z2", Broker.Status.ACTIVE),
        broker("w", "z2", Broker.Status.ACTIVE));
  }

  /** Shard 0, led by the first replica. */
  private static ShardAssignment shard(String... replicas) {
    return new ShardAssignment(0, replicas[0], List.of(replicas));
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
