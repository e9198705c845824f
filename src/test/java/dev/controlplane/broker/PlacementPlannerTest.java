package dev.controlplane.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.metadata.model.Broker;
import dev.controlplane.metadata.model.ShardPlacement.ShardAssignment;
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

class PlacementPlannerTest {

  private static final int SEEDS = 400;

  private static Broker broker(String name, String zone, Integer maxShards) {
    return new Broker(
        name, "h:1", "r1", zone, new Broker.Capacity(maxShards, null), Broker.Status.ACTIVE, 0);
  }

  /** A random cluster: 2-30 brokers over 1-4 zones, some capped, some already carrying shards. */
  private record Cluster(List<BrokerLoad> candidates, int rf, int shards) {}

  private static Cluster randomCluster(Random random, boolean limitsAndLoad) {
    int brokers = 2 + random.nextInt(29);
    int zones = 1 + random.nextInt(4);
    List<BrokerLoad> candidates = new ArrayList<>();
    for (int i = 0; i < brokers; i++) {
      String name = "b" + random.nextInt(1000) + "-" + i; // unique, in no particular order
      String zone = "z" + random.nextInt(zones);
      Integer max = null;
      int replicas = 0;
      int leaders = 0;
      if (limitsAndLoad) {
        if (random.nextInt(3) == 0) {
          max = random.nextInt(12);
        }
        if (random.nextBoolean()) {
          replicas = random.nextInt(15);
          leaders = random.nextInt(replicas + 1);
        }
      }
      candidates.add(new BrokerLoad(broker(name, zone, max), replicas, leaders));
    }
    int rf = 1 + random.nextInt(Math.min(brokers, 5));
    int shards = 1 + random.nextInt(40);
    return new Cluster(candidates, rf, shards);
  }

  private static boolean hasRoom(BrokerLoad load, int added) {
    Integer max = load.broker().capacity().maxShards();
    return max == null || load.replicas() + added < max;
  }

  /**
   * Checks the structural properties of a successful placement and returns the added replicas per
   * broker.
   */
  private static Map<String, Integer> assertWellFormed(
      Cluster c, List<ShardAssignment> placed, String context) {
    Map<String, BrokerLoad> byName =
        c.candidates().stream().collect(Collectors.toMap(BrokerLoad::name, b -> b));
    Map<String, Integer> added = new HashMap<>();
    assertEquals(c.shards(), placed.size(), context);
    for (int shard = 0; shard < placed.size(); shard++) {
      ShardAssignment a = placed.get(shard);
      String where = context + " shard " + shard + " " + a;
      assertEquals(shard, a.shardId(), where);
      assertThat(a.replicas()).as(where).hasSize(c.rf()).doesNotHaveDuplicates();
      assertThat(byName.keySet()).as(where).containsAll(a.replicas());
      assertEquals(a.leader(), a.replicas().get(0), where);

      // zones of brokers with room just before this shard was placed
      Set<String> zonesWithRoom = new HashSet<>();
      for (BrokerLoad b : c.candidates()) {
        if (hasRoom(b, added.getOrDefault(b.name(), 0))) {
          zonesWithRoom.add(b.broker().availabilityZone());
        }
      }
      for (String replica : a.replicas()) {
        assertThat(hasRoom(byName.get(replica), added.getOrDefault(replica, 0)))
            .as(where + ": " + replica + " had no room")
            .isTrue();
      }
      Set<String> zones =
          a.replicas().stream()
              .map(n -> byName.get(n).broker().availabilityZone())
              .collect(Collectors.toSet());
      assertThat(zones.size())
          .as(where + " zones")
          .isEqualTo(Math.min(c.rf(), zonesWithRoom.size()));

      a.replicas().forEach(r -> added.merge(r, 1, Integer::sum));
    }
    for (BrokerLoad b : c.candidates()) {
      Integer max = b.broker().capacity().maxShards();
      int extra = added.getOrDefault(b.name(), 0);
      if (max != null) {
        if (b.replicas() >= max) {
          assertEquals(0, extra, context + " full broker " + b.name() + " got shards");
        } else {
          assertThat(b.replicas() + extra)
              .as(context + " broker " + b.name())
              .isLessThanOrEqualTo(max);
        }
      }
    }
    return added;
  }

  @Test
  void randomClustersGetWellFormedPlacementsWithinCapacityAndSpreadOverZones() {
    int placed = 0;
    int refused = 0;
    for (long seed = 0; seed < SEEDS; seed++) {
      Cluster c = randomCluster(new Random(seed), true);
      String context = "seed " + seed + " rf " + c.rf() + " shards " + c.shards();
      List<ShardAssignment> result;
      try {
        result = PlacementPlanner.placeShards(c.shards(), c.rf(), c.candidates());
      } catch (ControlPlaneException e) {
        assertEquals(ErrorCode.FAILED_PRECONDITION, e.code(), context);
        assertRefusalWasForLackOfRoom(c, context);
        refused++;
        continue;
      }
      assertWellFormed(c, result, context);
      placed++;
    }
    // the generator must exercise both outcomes, mostly successes
    assertThat(placed).isGreaterThan(SEEDS / 2);
    assertThat(refused).isPositive();
  }

  /**
   * The planner keeps its brokers sorted across shards instead of sorting them again for each
   * shard; this is the sort-per-shard version it replaced, kept as the reference it must agree with
   * exactly.
   */
  private static List<ShardAssignment> sortingEveryShard(
      int shards, int rf, List<BrokerLoad> candidates) {
    Map<String, BrokerLoad> load = new java.util.LinkedHashMap<>();
    candidates.forEach(b -> load.put(b.name(), b));
    List<ShardAssignment> out = new ArrayList<>();
    for (int shard = 0; shard < shards; shard++) {
      List<BrokerLoad> ordered =
          load.values().stream()
              .filter(BrokerLoad::hasRoom)
              .sorted(
                  java.util.Comparator.comparingInt(BrokerLoad::replicas)
                      .thenComparing(BrokerLoad::name))
              .toList();
      if (ordered.size() < rf) {
        return null;
      }
      List<BrokerLoad> chosen = new ArrayList<>();
      Set<String> zones = new HashSet<>();
      for (BrokerLoad b : ordered) {
        if (chosen.size() < rf && zones.add(b.broker().availabilityZone())) {
          chosen.add(b);
        }
      }
      for (BrokerLoad b : ordered) {
        if (chosen.size() < rf && !chosen.contains(b)) {
          chosen.add(b);
        }
      }
      BrokerLoad leader =
          chosen.stream()
              .min(
                  java.util.Comparator.comparingInt(BrokerLoad::leaders)
                      .thenComparingInt(BrokerLoad::replicas)
                      .thenComparing(BrokerLoad::name))
              .orElseThrow();
      List<String> replicas = new ArrayList<>(List.of(leader.name()));
      chosen.stream()
          .map(BrokerLoad::name)
          .filter(n -> !n.equals(leader.name()))
          .forEach(replicas::add);
      for (BrokerLoad b : chosen) {
        load.put(b.name(), b.plusReplica(b.name().equals(leader.name())));
      }
      out.add(new ShardAssignment(shard, leader.name(), replicas));
    }
    return out;
  }

  @Test
  void placementsAreExactlyThoseOfSortingTheBrokersAgainForEveryShard() {
    for (long seed = 0; seed < SEEDS; seed++) {
      for (boolean limitsAndLoad : new boolean[] {true, false}) {
        Cluster c = randomCluster(new Random(seed), limitsAndLoad);
        String context = "seed " + seed + " rf " + c.rf() + " shards " + c.shards();
        List<ShardAssignment> expected = sortingEveryShard(c.shards(), c.rf(), c.candidates());
        if (expected == null) {
          assertThrows(
              ControlPlaneException.class,
              () -> PlacementPlanner.placeShards(c.shards(), c.rf(), c.candidates()),
              context);
        } else {
          assertEquals(
              expected, PlacementPlanner.placeShards(c.shards(), c.rf(), c.candidates()), context);
        }
      }
    }
  }

  /**
   * The planner is deterministic shard by shard, so the shards before the failing one are placed
   * the same way by a shorter call; just after them fewer than rf brokers must have had room.
   */
  private static void assertRefusalWasForLackOfRoom(Cluster c, String context) {
    int k = c.shards() - 1;
    List<ShardAssignment> prefix = null;
    while (k >= 0) {
      try {
        prefix = PlacementPlanner.placeShards(k, c.rf(), c.candidates());
        break;
      } catch (ControlPlaneException e) {
        k--;
      }
    }
    assertThat(prefix).as(context + ": zero shards must always be placeable").isNotNull();
    Map<String, Integer> added = new HashMap<>();
    prefix.forEach(a -> a.replicas().forEach(r -> added.merge(r, 1, Integer::sum)));
    long withRoom =
        c.candidates().stream().filter(b -> hasRoom(b, added.getOrDefault(b.name(), 0))).count();
    assertThat(withRoom).as(context + " brokers with room before shard " + k).isLessThan(c.rf());
  }

  @Test
  void unlimitedBrokersInAtLeastRfZonesPutEveryReplicaInADistinctZone() {
    int checked = 0;
    for (long seed = 0; seed < SEEDS; seed++) {
      Random random = new Random(seed);
      Cluster c = randomCluster(random, false);
      Set<String> zones =
          c.candidates().stream()
              .map(b -> b.broker().availabilityZone())
              .collect(Collectors.toSet());
      if (zones.size() < c.rf()) {
        continue;
      }
      Map<String, String> zoneOf =
          c.candidates().stream()
              .collect(Collectors.toMap(BrokerLoad::name, b -> b.broker().availabilityZone()));
      for (ShardAssignment a : PlacementPlanner.placeShards(c.shards(), c.rf(), c.candidates())) {
        assertThat(a.replicas().stream().map(zoneOf::get).distinct().count())
            .as("seed " + seed + " " + a)
            .isEqualTo(c.rf());
      }
      checked++;
    }
    assertThat(checked).isGreaterThan(50);
  }

  @Test
  void leadershipIsSpreadEvenlyOverUnloadedUnlimitedBrokers() {
    for (long seed = 0; seed < SEEDS; seed++) {
      Random random = new Random(seed);
      Cluster c = randomCluster(random, false);
      int shards = 1 + random.nextInt(100);
      List<ShardAssignment> placed = PlacementPlanner.placeShards(shards, c.rf(), c.candidates());
      Map<String, Long> leads =
          placed.stream()
              .collect(Collectors.groupingBy(ShardAssignment::leader, Collectors.counting()));
      int brokers = c.candidates().size();
      long bound = (shards + brokers - 1) / brokers + 1;
      assertThat(leads.values().stream().mapToLong(Long::longValue).max().orElse(0))
          .as(
              "seed %d: %d shards, rf %d, %d brokers, leaders %s",
              seed, shards, c.rf(), brokers, leads)
          .isLessThanOrEqualTo(bound);
    }
  }

  @Test
  void replicasGoToTheLeastLoadedBrokersAndLeadershipToTheReplicaLeadingLeast() {
    List<BrokerLoad> candidates =
        List.of(
            new BrokerLoad(broker("busy", "z1", null), 10, 0),
            new BrokerLoad(broker("idle-1", "z1", null), 1, 1),
            new BrokerLoad(broker("idle-2", "z1", null), 2, 0));
    ShardAssignment only = PlacementPlanner.placeShards(1, 2, candidates).get(0);
    assertThat(only.replicas()).containsExactlyInAnyOrder("idle-1", "idle-2");
    assertEquals("idle-2", only.leader());
    assertEquals(List.of("idle-2", "idle-1"), only.replicas());
  }

  @Test
  void fewerBrokersThanTheReplicationFactorIsAFailedPrecondition() {
    List<BrokerLoad> two =
        List.of(
            new BrokerLoad(broker("b1", "z1", null), 0, 0),
            new BrokerLoad(broker("b2", "z2", null), 0, 0));
    ControlPlaneException e =
        assertThrows(ControlPlaneException.class, () -> PlacementPlanner.placeShards(1, 3, two));
    assertEquals(ErrorCode.FAILED_PRECONDITION, e.code());
  }

  @Test
  void fullBrokersDoNotCountTowardsTheReplicationFactor() {
    List<BrokerLoad> candidates =
        List.of(
            new BrokerLoad(broker("b1", "z1", 4), 4, 0),
            new BrokerLoad(broker("b2", "z2", null), 0, 0),
            new BrokerLoad(broker("b3", "z3", 0), 0, 0),
            new BrokerLoad(broker("b4", "z1", 5), 9, 2));
    ControlPlaneException e =
        assertThrows(
            ControlPlaneException.class, () -> PlacementPlanner.placeShards(1, 2, candidates));
    assertEquals(ErrorCode.FAILED_PRECONDITION, e.code());
  }

  @Test
  void capacityRunningOutPartWayThroughIsAFailedPrecondition() {
    List<BrokerLoad> candidates =
        List.of(
            new BrokerLoad(broker("b1", "z1", 2), 0, 0),
            new BrokerLoad(broker("b2", "z2", 2), 0, 0),
            new BrokerLoad(broker("b3", "z3", 2), 0, 0));
    assertThat(PlacementPlanner.placeShards(2, 3, candidates)).hasSize(2);
    ControlPlaneException e =
        assertThrows(
            ControlPlaneException.class, () -> PlacementPlanner.placeShards(3, 3, candidates));
    assertEquals(ErrorCode.FAILED_PRECONDITION, e.code());
  }

  @Test
  void randomClustersWithTooFewBrokersWithRoomAreRefused() {
    for (long seed = 0; seed < 100; seed++) {
      Random random = new Random(seed);
      int rf = 2 + random.nextInt(4);
      List<BrokerLoad> candidates = new ArrayList<>();
      int roomy = random.nextInt(rf); // fewer than rf brokers with room
      for (int i = 0; i < roomy; i++) {
        candidates.add(
            new BrokerLoad(broker("ok" + i, "z" + random.nextInt(4), null), random.nextInt(5), 0));
      }
      int full = random.nextInt(10);
      for (int i = 0; i < full; i++) {
        int max = random.nextInt(5);
        candidates.add(
            new BrokerLoad(
                broker("full" + i, "z" + random.nextInt(4), max), max + random.nextInt(3), 0));
      }
      String context = "seed " + seed + " rf " + rf + " candidates " + candidates.size();
      ControlPlaneException e =
          assertThrows(
              ControlPlaneException.class,
              () -> PlacementPlanner.placeShards(1, rf, candidates),
              context);
      assertEquals(ErrorCode.FAILED_PRECONDITION, e.code(), context);
    }
  }

  @Test
  void existingLoadCountsAgainstMaxShards() {
    List<BrokerLoad> candidates =
        List.of(
            new BrokerLoad(broker("capped", "z1", 5), 3, 0),
            new BrokerLoad(broker("free-1", "z2", null), 3, 0),
            new BrokerLoad(broker("free-2", "z3", null), 3, 0));
    List<ShardAssignment> placed = PlacementPlanner.placeShards(30, 2, candidates);
    long onCapped = placed.stream().filter(a -> a.replicas().contains("capped")).count();
    assertEquals(2, onCapped);
  }
}
