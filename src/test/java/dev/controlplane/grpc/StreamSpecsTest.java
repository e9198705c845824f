package dev.controlplane.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.metadata.codec.ResourceCodec;
import dev.controlplane.metadata.model.Stream;
import dev.controlplane.proto.v1.RetentionPolicy;
import dev.controlplane.proto.v1.StreamSpec;
import org.junit.jupiter.api.Test;

/**
 * CreateStream's retention: the proto has each limit as text and normalised. Only the text was
 * read, so a client that set the normalised fields (as the answers carry them) got a stream that
 * kept its data forever, and one whose two forms disagreed got either without a word.
 */
class StreamSpecsTest {

  private final ResourceCodec codec = new ResourceCodec();

  private Stream create(RetentionPolicy retention) {
    return StreamSpecs.toStream(
        codec,
        "acme",
        "payments",
        "orders",
        StreamSpec.newBuilder().setShards(1).setRetention(retention).build());
  }

  @Test
  void theNormalisedFieldsAloneSetTheLimits() {
    Stream.Retention r =
        create(RetentionPolicy.newBuilder().setTimeMs(604_800_000L).setSizeInBytes(10_000L).build())
            .spec()
            .retention();
    assertThat(r.time().millis()).isEqualTo(604_800_000L);
    assertThat(r.size().bytes()).isEqualTo(10_000L);
  }

  @Test
  void bothFormsThatAgreeAreTaken() {
    Stream.Retention r =
        create(
                RetentionPolicy.newBuilder()
                    .setTime("7d")
                    .setTimeMs(604_800_000L)
                    .setSize("1KiB")
                    .setSizeInBytes(1024)
                    .build())
            .spec()
            .retention();
    assertThat(r.time().text()).isEqualTo("7d");
    assertThat(r.size().bytes()).isEqualTo(1024);
  }

  @Test
  void formsThatDisagreeAreRefusedNamingTheNormalisedField() {
    assertThatThrownBy(
            () -> create(RetentionPolicy.newBuilder().setTime("7d").setTimeMs(1000).build()))
        .isInstanceOf(ControlPlaneException.class)
        .hasMessageContaining("spec.retention.time_ms")
        .hasMessageContaining("'7d' is 604800000 ms");
    assertThatThrownBy(
            () -> create(RetentionPolicy.newBuilder().setSize("10GB").setSizeInBytes(5).build()))
        .hasMessageContaining("spec.retention.size_in_bytes");
    assertThatThrownBy(() -> create(RetentionPolicy.newBuilder().setTimeMs(-1L).build()))
        .hasMessageContaining("spec.retention.time_ms: must be at most");
  }
}
