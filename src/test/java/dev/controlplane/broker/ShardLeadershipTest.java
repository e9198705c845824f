package dev.controlplane.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.metadata.model.Broker;
import dev.controlplane.metadata.model.ShardPlacement;
import dev.controlplane.metadata.model.ShardPlacement.ShardAssignment;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which replica leads a shard whose leader is down. */
class ShardLeadershipTest {

  private final Map<String, Broker> brokers = new HashMap<>();
  private ShardLeadership.InSync inSync = ShardLeadership.InSync.UNKNOWN;

  private void set(String name, Broker.Status status) {
    brokers.put(name, new Broker(name, "h:1", "r", "z", Broker.Capacity.UNLIMITED, status, 1));
  }

  private ShardPlacement withLiveLeaders(ShardPlacement placement) {
    return ShardLeadership.withLiveLeaders(
        placement, b -> Optional.ofNullable(brokers.get(b)), b -> 0, inSync);
  }

  private static ShardPlacement placement(ShardAssignment... shards) {
    return new ShardPlacement("t", "n", "s", List.of(shards), 5);
  }

  private static List<String> leaders(ShardPlacement placement) {
    return placement.placements().stream().map(ShardAssignment::leader).toList();
  }

  /**
   * RF 2 on b1 (leader) and b2: b2 goes down, then b1. Nobody can lead until b2 comes back, and
   * then b2 must: the shard kept b1, which was down, as its leader.
   */
  @Test
  void aReplicaThatComesBackLeadsAShardWhoseLeaderIsDown() {
    ShardPlacement p = placement(new ShardAssignment(0, "b1", List.of("b1", "b2")));
    set("b1", Broker.Status.DOWN);
    set("b2", Broker.Status.DOWN);
    assertThat(withLiveLeaders(p)).as("no live replica: unchanged").isSameAs(p);

    set("b2", Broker.Status.ACTIVE);
    ShardPlacement after = withLiveLeaders(p);
    assertThat(leaders(after)).containsExactly("b2");
    assertThat(after.placements().get(0).replicas())
        .as("the leader is listed first")
        .containsExactly("b2", "b1");
  }

  @Test
  void aDrainingReplicaLeadsWhenNoActiveOneIsAlive() {
    set("b1", Broker.Status.DOWN);
    set("b2", Broker.Status.DRAINING);
    var shard = new ShardAssignment(0, "b1", List.of("b1", "b2"));
    assertThat(leaders(withLiveLeaders(placement(shard)))).containsExactly("b2");
  }

  @Test
  void anActiveReplicaIsPreferredToADrainingOne() {
    set("b1", Broker.Status.DOWN);
    set("a0", Broker.Status.DRAINING);
    set("b3", Broker.Status.ACTIVE);
    var shard = new ShardAssignment(0, "b1", List.of("b1", "a0", "b3"));
    assertThat(leaders(withLiveLeaders(placement(shard)))).containsExactly("b3");
  }

  @Test
  void theLeadershipsOfADownBrokerSpreadOverItsReplicas() {
    set("b1", Broker.Status.DOWN);
    set("b2", Broker.Status.ACTIVE);
    set("b3", Broker.Status.ACTIVE);
    ShardPlacement p =
        placement(
            new ShardAssignment(0, "b1", List.of("b1", "b2", "b3")),
            new ShardAssignment(1, "b1", List.of("b1", "b2", "b3")));
    assertThat(leaders(withLiveLeaders(p))).containsExactlyInAnyOrder("b2", "b3");
  }

  @Test
  void aShardLedByAnUnregisteredBrokerGetsALiveLeaderAndLiveLeadersStay() {
    set("b2", Broker.Status.ACTIVE);
    set("b3", Broker.Status.DRAINING);
    ShardPlacement p =
        placement(
            new ShardAssignment(0, "gone", List.of("gone", "b2")),
            new ShardAssignment(1, "b3", List.of("b3", "b2")));
    assertThat(leaders(withLiveLeaders(p))).containsExactly("b2", "b3");
    ShardPlacement live = placement(new ShardAssignment(0, "b3", List.of("b3", "b2")));
    assertThat(withLiveLeaders(live)).isSameAs(live);
  }

  private void reported(Map<String, Boolean> inSyncByBroker) {
    inSync = (broker, placement, shardId) -> Optional.ofNullable(inSyncByBroker.get(broker));
  }

  /**
   * b1 led and is down. b4's last heartbeat said its copy was in sync, b2's that it lagged, b3 said
   * nothing of the shard: b4 leads though it is draining, since a lagging leader would lose the
   * messages it lacks; without b4's report, b3 before b2.
   */
  @Test
  void aReplicaThatReportedItsCopyInSyncLeadsBeforeOneThatSaidNothingOrLagged() {
    set("b1", Broker.Status.DOWN);
    set("b2", Broker.Status.ACTIVE);
    set("b3", Broker.Status.ACTIVE);
    set("b4", Broker.Status.DRAINING);
    var shard = new ShardAssignment(0, "b1", List.of("b1", "b2", "b3", "b4"));
    reported(Map.of("b2", false, "b4", true));
    assertThat(leaders(withLiveLeaders(placement(shard)))).containsExactly("b4");
    reported(Map.of("b2", false));
    assertThat(leaders(withLiveLeaders(placement(shard)))).containsExactly("b3");
  }

  @Test
  void aReplicaThatLaggedStillLeadsWhenNoOtherIsAlive() {
    set("b1", Broker.Status.DOWN);
    set("b2", Broker.Status.ACTIVE);
    set("b3", Broker.Status.DOWN);
    reported(Map.of("b2", false, "b3", true));
    var shard = new ShardAssignment(0, "b1", List.of("b1", "b2", "b3"));
    assertThat(leaders(withLiveLeaders(placement(shard)))).containsExactly("b2");
  }
}
