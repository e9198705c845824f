package dev.controlplane.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.metadata.model.Broker;
import dev.controlplane.metadata.model.Namespace;
import dev.controlplane.metadata.model.Resource;
import dev.controlplane.metadata.model.Tenant;
import dev.controlplane.metadata.snapshot.MetadataImage;
import dev.controlplane.proto.v1.GetSnapshotResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SnapshotChunksTest {

  private static MetadataImage image(int tenants, int brokers) {
    List<Resource> all = new ArrayList<>();
    for (int i = 0; i < tenants; i++) {
      all.add(new Tenant("t" + i, "tenant number " + i, null, null, 1));
      all.add(new Namespace("t" + i, "ns", "a namespace", null, 1));
    }
    for (int i = 0; i < brokers; i++) {
      all.add(
          new Broker("b" + i, "10.0.0." + i + ":7000", "r", "z", null, Broker.Status.ACTIVE, 1));
    }
    return MetadataImage.of(7, all);
  }

  private static List<GetSnapshotResponse> drain(SnapshotChunks chunks) {
    List<GetSnapshotResponse> out = new ArrayList<>();
    while (chunks.hasNext()) {
      out.add(chunks.next());
    }
    return out;
  }

  @Test
  void everyResourceIsSentOnceInChunksUnderTheLimitAndOnlyTheLastSaysSo() {
    List<GetSnapshotResponse> chunks = drain(new SnapshotChunks(image(300, 200), 2_000));

    assertThat(chunks.size()).isGreaterThan(5);
    for (int i = 0; i < chunks.size(); i++) {
      GetSnapshotResponse c = chunks.get(i);
      assertThat(c.getChunk()).isEqualTo(i);
      assertThat(c.getVersion()).isEqualTo(7);
      assertThat(c.getLast()).isEqualTo(i == chunks.size() - 1);
      assertThat(c.getMetadata().getSerializedSize()).isLessThanOrEqualTo(2_000);
    }
    assertThat(chunks.stream().mapToInt(c -> c.getMetadata().getTenantsCount()).sum())
        .isEqualTo(300);
    assertThat(chunks.stream().mapToInt(c -> c.getMetadata().getNamespacesCount()).sum())
        .isEqualTo(300);
    assertThat(chunks.stream().flatMap(c -> c.getMetadata().getBrokersList().stream()).distinct())
        .hasSize(200);
  }

  @Test
  void anEmptyImageIsOneLastChunk() {
    List<GetSnapshotResponse> chunks = drain(new SnapshotChunks(MetadataImage.empty(), 1_000));

    assertThat(chunks).hasSize(1);
    assertThat(chunks.get(0).getLast()).isTrue();
    assertThat(chunks.get(0).getVersion()).isZero();
  }
}
