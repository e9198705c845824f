package dev.controlplane.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.metadata.kind.Kinds;
import dev.controlplane.metadata.model.Resource;
import dev.controlplane.metadata.model.Tenant;
import dev.controlplane.metadata.snapshot.MetadataImage;
import java.util.List;
import org.junit.jupiter.api.Test;

class EncodedResourcesTest {

  private static final Tenant ACME = new Tenant("acme", "first", null, null, 1);

  @Test
  void theSameResourceObjectIsEncodedOnce() {
    EncodedResources encoded = new EncodedResources(true);

    byte[] first = encoded.bytes(ACME, encoded.beginPass());
    byte[] again = encoded.bytes(ACME, encoded.beginPass());

    assertThat(again).isSameAs(first).isEqualTo(Kinds.message(ACME).toByteArray());
  }

  @Test
  void anEqualButNewObjectIsEncodedAgainBecauseOnlyIdentityProvesNoChange() {
    EncodedResources encoded = new EncodedResources(true);
    byte[] first = encoded.bytes(ACME, encoded.beginPass());
    Tenant changed = new Tenant("acme", "second", null, null, 2);

    byte[] now = encoded.bytes(changed, encoded.beginPass());

    assertThat(now).isNotSameAs(first).isEqualTo(Kinds.message(changed).toByteArray());
    assertThat(encoded.size()).isEqualTo(1);
  }

  @Test
  void aPassOverTheLatestImageDropsWhatItDidNotUse() {
    EncodedResources encoded = new EncodedResources(true);
    Tenant other = new Tenant("other", null, null, null, 2);
    encoded.fill(MetadataImage.of(2, List.<Resource>of(ACME, other)));
    assertThat(encoded.size()).isEqualTo(2);

    long pass = encoded.beginPass();
    encoded.bytes(ACME, pass);
    encoded.dropUnusedSince(pass);

    assertThat(encoded.size()).isEqualTo(1);
  }

  @Test
  void aLaterPassKeepsItsEntriesWhenAnEarlierOneCompletes() {
    EncodedResources encoded = new EncodedResources(true);
    long earlier = encoded.beginPass();
    long later = encoded.beginPass();
    encoded.bytes(ACME, later);

    encoded.dropUnusedSince(earlier);

    assertThat(encoded.size()).isEqualTo(1);
  }

  @Test
  void aNodeThatDoesNotKeepThemEncodesEachTimeAndHoldsNothing() {
    EncodedResources encoded = new EncodedResources(false);

    assertThat(encoded.fill(MetadataImage.of(1, List.<Resource>of(ACME)))).isZero();
    byte[] first = encoded.bytes(ACME, encoded.beginPass());
    byte[] again = encoded.bytes(ACME, encoded.beginPass());

    assertThat(again).isNotSameAs(first).isEqualTo(first);
    assertThat(first).isEqualTo(Kinds.message(ACME).toByteArray());
    assertThat(encoded.size()).isZero();
  }
}
