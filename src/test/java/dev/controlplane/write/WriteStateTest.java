package dev.controlplane.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.metadata.model.ShardPlacement.ShardAssignment;
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

  private static List<ShardAssignment> randomPlacement(Random random) {
    int shards = 1 + random.nextInt(4);
    int factor = 1 + random.nextInt(3);
    List<ShardAssignment> out = new ArrayList<>();
    for (int shard = 0; shard < shards; shard++) {
      List<String> brokers = new ArrayList<>(BROKERS);
      Collections.shuffle(brokers, random);
      List<String> replicas = brokers.subList(0, factor);
      out.add(new ShardAssignment(shard, replicas.get(random.nextInt(factor)), replicas));
    }
    return out;
  }

  private static Map<String, BrokerCounts> recount(Map<String, List<ShardAssignment>> placements) {
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

  @Test
  void brokerCountsFollowEveryPlacementCreatedMovedAndDeleted() {
    Random random = new Random(13);
    WriteState state = new WriteState(1, MetadataImage.empty(), TreePMap.empty(), TreePMap.empty());
    Map<String, List<ShardAssignment>> placements = new TreeMap<>();
    for (int step = 0; step < 2_000; step++) {
      String stream = "s" + random.nextInt(40);
      List<ShardAssignment> before = placements.getOrDefault(stream, List.of());
      List<ShardAssignment> after = random.nextInt(4) == 0 ? List.of() : randomPlacement(random);
      state = state.withLoadChange(before, after);
      if (after.isEmpty()) {
        placements.remove(stream);
      } else {
        placements.put(stream, after);
      }
      Map<String, BrokerCounts> expected = recount(placements);
      for (String broker : BROKERS) {
        assertThat(state.load(broker))
            .as("broker %s after step %d", broker, step)
            .isEqualTo(expected.getOrDefault(broker, BrokerCounts.NONE));
      }
    }
  }
}
