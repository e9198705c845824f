package dev.controlplane.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.metadata.model.Broker;
import dev.controlplane.metadata.model.MetadataUpdate;
import dev.controlplane.metadata.model.Resource;
import dev.controlplane.metadata.model.ShardPlacement;
import dev.controlplane.metadata.model.ShardPlacement.ShardAssignment;
import dev.controlplane.metadata.model.UpdateType;
import dev.controlplane.metadata.snapshot.MetadataImage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.pcollections.TreePMap;

class WriteStateTest {

  private static final List<String> BROKERS = IntStream.range(0, 7).mapToObj(i -> "b" + i).toList();
  private static final Broker.Status[] STATUSES = Broker.Status.values();

  /** What the state is expected to hold: every placement and broker, as plain maps. */
  private final Map<String, List<ShardAssignment>> placements = new TreeMap<>();

  private final Map<String, Broker> brokers = new TreeMap<>();
  private final Random random = new Random(13);
  private long version;

  private List<ShardAssignment> randomPlacement() {
    int shards = 1 + random.nextInt(4);
    int factor = 1 + random.nextInt(3);
    List<ShardAssignment> out = new ArrayList<>();
    for (int shard = 0; shard < shards; shard++) {
      List<String> names = new ArrayList<>(BROKERS);
      Collections.shuffle(names, random);
      List<String> replicas = names.subList(0, factor);
      out.add(new ShardAssignment(shard, replicas.get(random.nextInt(factor)), replicas));
    }
    return out;
  }

  private Map<String, BrokerCounts> recount() {
    Map<String, BrokerCounts> out = new TreeMap<>();
    for (List<ShardAssignment> placement : placements.values()) {
      for (ShardAssignment shard : placement) {
        for (String replica : shard.replicas()) {
          out.merge(replica, new BrokerCounts(1, 0), (a, b) -> a.plus(1, 0));
        }
        out.merge(shard.leader(), new BrokerCounts(0, 1), (a, b) -> a.plus(0, 1));
      }
    }
    return out;
  }

  /** The active brokers with their recounted loads, sorted as placement takes them. */
  private List<BrokerLoad> expectedRanking() {
    Map<String, BrokerCounts> counts = recount();
    List<BrokerLoad> out = new ArrayList<>();
    for (Broker b : brokers.values()) {
      if (b.status() == Broker.Status.ACTIVE) {
        BrokerCounts c = counts.getOrDefault(b.name(), BrokerCounts.NONE);
        out.add(new BrokerLoad(b, c.replicas(), c.leaders()));
      }
    }
    out.sort(BrokerLoad.BY_LOAD);
    return out;
  }

  private WriteState changePlacement(WriteState state) {
    String stream = "s" + random.nextInt(40);
    List<ShardAssignment> before = placements.getOrDefault(stream, List.of());
    List<ShardAssignment> after = random.nextInt(4) == 0 ? List.of() : randomPlacement();
    if (after.isEmpty()) {
      placements.remove(stream);
    } else {
      placements.put(stream, after);
    }
    return state.withLoadChange(before, after);
  }

  /** A broker registers, changes status or zone, or goes: as WriteContext applies it. */
  private WriteState changeBroker(WriteState state) {
    String name = BROKERS.get(random.nextInt(BROKERS.size()));
    Broker before = brokers.get(name);
    Broker after =
        before != null && random.nextInt(5) == 0
            ? null
            : new Broker(
                name,
                "h:1",
                "r1",
                "z" + random.nextInt(3),
                Broker.Capacity.UNLIMITED,
                STATUSES[random.nextInt(STATUSES.length)],
                ++version);
    MetadataUpdate update =
        after == null
            ? new MetadataUpdate(++version, UpdateType.DELETE, before, before)
            : new MetadataUpdate(
                version, before == null ? UpdateType.CREATE : UpdateType.UPDATE, after, before);
    if (after == null) {
      brokers.remove(name);
    } else {
      brokers.put(name, after);
    }
    return state.withImage(state.image().replay(update)).withBrokerChange(before, after);
  }

  @Test
  void countsAndRankingFollowEveryPlacementAndBrokerChange() {
    WriteState state = WriteState.of(1, MetadataImage.empty(), TreePMap.empty());
    for (int step = 0; step < 3_000; step++) {
      state = random.nextInt(3) == 0 ? changeBroker(state) : changePlacement(state);
      Map<String, BrokerCounts> counts = recount();
      for (String broker : BROKERS) {
        assertThat(state.load(broker))
            .as("counts of %s after step %d", broker, step)
            .isEqualTo(counts.getOrDefault(broker, BrokerCounts.NONE));
      }
      assertThat(List.copyOf(state.ranking().byLoad()))
          .as("ranking after step %d", step)
          .isEqualTo(expectedRanking());
      assertThat(state.ranking().zoneCount())
          .as("zones after step %d", step)
          .isEqualTo(
              expectedRanking().stream()
                  .map(b -> b.broker().availabilityZone())
                  .distinct()
                  .count());
    }
  }

  @Test
  void aStateLoadedFromAnImageRanksItsActiveBrokersByTheLoadOfItsPlacements() {
    WriteState incremental = WriteState.of(1, MetadataImage.empty(), TreePMap.empty());
    for (int step = 0; step < 500; step++) {
      incremental =
          random.nextInt(3) == 0 ? changeBroker(incremental) : changePlacement(incremental);
    }
    List<Resource> resources = new ArrayList<>(brokers.values());
    placements.forEach(
        (stream, shards) -> resources.add(new ShardPlacement("t", "ns", stream, shards, 1)));
    WriteState loaded = WriteState.of(1, MetadataImage.of(version, resources), TreePMap.empty());
    assertThat(List.copyOf(loaded.ranking().byLoad())).isEqualTo(expectedRanking());
    assertThat(loaded.loads()).isEqualTo(incremental.loads().minusAll(zeroCounts(incremental)));
  }

  /** Brokers whose counts went back to zero: the incremental state keeps them, a load does not. */
  private static List<String> zeroCounts(WriteState state) {
    return state.loads().entrySet().stream()
        .filter(e -> e.getValue().equals(BrokerCounts.NONE))
        .map(Map.Entry::getKey)
        .toList();
  }
}
