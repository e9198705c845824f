package dev.controlplane.metadata.kind;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.controlplane.metadata.model.ShardPlacement;
import dev.controlplane.metadata.model.ShardPlacement.ShardAssignment;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlacementProtoTest {

  private static dev.controlplane.proto.v1.ShardPlacement proto(ShardPlacement placement)
      throws InvalidProtocolBufferException {
    // Through the wire, as a broker reads it.
    return dev.controlplane.proto.v1.ShardPlacement.parseFrom(
        Kinds.of(placement).message(placement).toByteArray());
  }

  @Test
  void aPlacementReachesTheWireWithEveryShardsLeaderAndReplicasInOrder() throws Exception {
    ShardPlacement placement =
        new ShardPlacement(
            "acme",
            "payments",
            "orders",
            List.of(
                new ShardAssignment(0, "broker-a", List.of("broker-a", "broker-b", "broker-c")),
                new ShardAssignment(1, "broker-c", List.of("broker-c", "broker-a", "broker-b"))),
            42);

    var wire = proto(placement);

    assertThat(wire.getTenant()).isEqualTo("acme");
    assertThat(wire.getStream()).isEqualTo("orders");
    assertThat(wire.getVersion()).isEqualTo(42);
    assertThat(wire.getPlacementsList())
        .extracting(s -> s.getShardId(), s -> s.getLeader(), s -> List.copyOf(s.getReplicasList()))
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                0, "broker-a", List.of("broker-a", "broker-b", "broker-c")),
            org.assertj.core.groups.Tuple.tuple(
                1, "broker-c", List.of("broker-c", "broker-a", "broker-b")));
  }
}
