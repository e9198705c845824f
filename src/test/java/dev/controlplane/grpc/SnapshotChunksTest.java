package dev.controlplane.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.controlplane.metadata.kind.Kinds;
import dev.controlplane.metadata.model.Broker;
import dev.controlplane.metadata.model.Namespace;
import dev.controlplane.metadata.model.Resource;
import dev.controlplane.metadata.model.ResourceKind;
import dev.controlplane.metadata.model.ShardPlacement;
import dev.controlplane.metadata.model.ShardPlacement.ShardAssignment;
import dev.controlplane.metadata.model.Stream;
import dev.controlplane.metadata.model.Stream.StreamSpec;
import dev.controlplane.metadata.model.Tenant;
import dev.controlplane.metadata.snapshot.MetadataImage;
import dev.controlplane.proto.v1.GetSnapshotResponse;
import dev.controlplane.proto.v1.Metadata;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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

  /** Every kind, with placements of random sizes (some larger than a small chunk on their own). */
  private static MetadataImage everyKind(long version, Random random) {
    List<Resource> all = new ArrayList<>(image(20, 30).ofKind(ResourceKind.TENANT));
    all.addAll(image(20, 30).ofKind(ResourceKind.NAMESPACE));
    all.addAll(image(20, 30).ofKind(ResourceKind.BROKER));
    for (int i = 0; i < 150; i++) {
      String tenant = "t" + random.nextInt(20);
      int shards = 1 + random.nextInt(i % 10 == 0 ? 200 : 16);
      all.add(
          new Stream(
              tenant,
              "ns",
              "s" + i,
              new StreamSpec(shards, null, Stream.Durability.DURABLE, 3, Stream.AckPolicy.QUORUM),
              Stream.State.ACTIVE,
              1 + i));
      List<ShardAssignment> placements = new ArrayList<>();
      for (int s = 0; s < shards; s++) {
        placements.add(
            new ShardAssignment(s, "b" + s % 30, List.of("b" + s % 30, "b" + (s + 1) % 30)));
      }
      all.add(new ShardPlacement(tenant, "ns", "s" + i, placements, 1 + i));
    }
    return MetadataImage.of(version, all);
  }

  private static List<GetSnapshotResponse> drain(SnapshotChunks chunks) {
    List<GetSnapshotResponse> out = new ArrayList<>();
    for (byte[] bytes : bytes(chunks)) {
      try {
        out.add(GetSnapshotResponse.parseFrom(bytes));
      } catch (InvalidProtocolBufferException e) {
        throw new AssertionError("a chunk is not a GetSnapshotResponse", e);
      }
    }
    return out;
  }

  /** Each chunk's bytes as the marshaller hands them to gRPC. */
  private static List<byte[]> bytes(SnapshotChunks chunks) {
    List<byte[]> out = new ArrayList<>();
    while (chunks.hasNext()) {
      try (InputStream in = EncodedChunk.MARSHALLER.stream(chunks.next())) {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        ((io.grpc.Drainable) in).drainTo(sink);
        out.add(sink.toByteArray());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return out;
  }

  /**
   * The chunks as protobuf's builders make them, by the same rule: a resource goes to the next
   * chunk when it would take this one's metadata over the limit and the chunk is not empty.
   */
  private static List<byte[]> builtByProtobuf(MetadataImage image, int chunkBytes) {
    List<byte[]> out = new ArrayList<>();
    Metadata.Builder part = Metadata.newBuilder();
    for (ResourceKind kind : ResourceKind.values()) {
      for (Resource r : image.ofKind(kind)) {
        Metadata.Builder with = part.clone();
        add(with, r);
        if (part.build().getSerializedSize() > 0 && with.build().getSerializedSize() > chunkBytes) {
          out.add(chunk(image, part, out.size(), false));
          part = Metadata.newBuilder();
          add(part, r);
        } else {
          part = with;
        }
      }
    }
    out.add(chunk(image, part, out.size(), true));
    return out;
  }

  private static void add(Metadata.Builder part, Resource r) {
    switch (r.kind()) {
      case TENANT -> part.addTenants((dev.controlplane.proto.v1.Tenant) Kinds.message(r));
      case NAMESPACE -> part.addNamespaces((dev.controlplane.proto.v1.Namespace) Kinds.message(r));
      case STREAM -> part.addStreams((dev.controlplane.proto.v1.Stream) Kinds.message(r));
      case SHARD_PLACEMENT ->
          part.addPlacements((dev.controlplane.proto.v1.ShardPlacement) Kinds.message(r));
      case BROKER -> part.addBrokers((dev.controlplane.proto.v1.Broker) Kinds.message(r));
    }
  }

  private static byte[] chunk(MetadataImage image, Metadata.Builder part, int n, boolean last) {
    return GetSnapshotResponse.newBuilder()
        .setVersion(image.version())
        .setMetadata(part)
        .setChunk(n)
        .setLast(last)
        .build()
        .toByteArray();
  }

  @Test
  void everyResourceIsSentOnceInChunksUnderTheLimitAndOnlyTheLastSaysSo() {
    List<GetSnapshotResponse> chunks =
        drain(new SnapshotChunks(image(300, 200), 2_000, new EncodedResources(true)));

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
    List<GetSnapshotResponse> chunks =
        drain(new SnapshotChunks(MetadataImage.empty(), 1_000, new EncodedResources(true)));

    assertThat(chunks).hasSize(1);
    assertThat(chunks.get(0).getLast()).isTrue();
    assertThat(chunks.get(0).getVersion()).isZero();
  }

  @ParameterizedTest(name = "wire forms kept: {0}")
  @ValueSource(booleans = {true, false})
  void chunksAreByteForByteTheMessagesProtobufWouldBuild(boolean keep) {
    Random random = new Random(13);
    EncodedResources encoded = new EncodedResources(keep);
    for (int round = 0; round < 20; round++) {
      MetadataImage image = everyKind(round == 0 ? 0 : 1_000 + round, random);
      int chunkBytes = 200 + random.nextInt(round % 2 == 0 ? 2_000 : 200_000);

      List<byte[]> sent = bytes(new SnapshotChunks(image, chunkBytes, encoded));

      List<byte[]> expected = builtByProtobuf(image, chunkBytes);
      assertThat(sent)
          .as("chunks of %d bytes, round %d", chunkBytes, round)
          .hasSize(expected.size());
      for (int i = 0; i < sent.size(); i++) {
        assertThat(sent.get(i)).as("chunk %d of round %d", i, round).isEqualTo(expected.get(i));
      }
    }
  }

  @Test
  void aChangedResourceIsSentAsItIsNowNotAsItWasEncoded() {
    EncodedResources encoded = new EncodedResources(true);
    MetadataImage before = image(3, 2);
    encoded.fill(before);
    Tenant renamed = new Tenant("t1", "renamed", null, null, 8);
    MetadataImage after = MetadataImage.of(8, replaced(before, renamed));

    List<GetSnapshotResponse> chunks = drain(new SnapshotChunks(after, 1 << 20, encoded));

    assertThat(chunks.get(0).getMetadata().getTenantsList())
        .extracting(dev.controlplane.proto.v1.Tenant::getDescription)
        .containsExactly("tenant number 0", "renamed", "tenant number 2");
  }

  private static List<Resource> replaced(MetadataImage image, Resource changed) {
    List<Resource> all = new ArrayList<>();
    for (ResourceKind kind : ResourceKind.values()) {
      for (Resource r : image.ofKind(kind)) {
        all.add(r.kind() == changed.kind() && r.key().equals(changed.key()) ? changed : r);
      }
    }
    return all;
  }
}
