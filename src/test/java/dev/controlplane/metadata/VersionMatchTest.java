package dev.controlplane.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.metadata.model.Namespace;
import dev.controlplane.metadata.model.Namespace.NamespaceQuotas;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

class VersionMatchTest {

  private static final Optional<Namespace> AT_7 =
      Optional.of(new Namespace("t", "ns", "", NamespaceQuotas.NONE, 7));

  @Test
  void aStatedVersionThatIsNotTheCurrentOneIsAConflict() {
    assertThatThrownBy(() -> VersionMatch.stated(OptionalLong.of(6)).check(AT_7))
        .isInstanceOfSatisfying(ControlPlaneException.class, e -> assertCode(e, ErrorCode.CONFLICT))
        .hasMessageContaining("metadata.version 6 is not the current version 7");
  }

  @Test
  void statedVersionZeroMeansTheResourceMustNotExistYet() {
    assertThatCode(() -> VersionMatch.stated(OptionalLong.of(0)).check(Optional.empty()))
        .doesNotThrowAnyException();
    assertThatThrownBy(() -> VersionMatch.stated(OptionalLong.of(0)).check(AT_7))
        .isInstanceOfSatisfying(
            ControlPlaneException.class, e -> assertCode(e, ErrorCode.CONFLICT));
  }

  @Test
  void aFailedIfMatchIsAPreconditionFailureEvenWhenTheStatedVersionIsWrongToo() {
    VersionMatch both = VersionMatch.oneOf(Set.of(5L)).andStated(OptionalLong.of(6));
    assertThatThrownBy(() -> both.check(AT_7))
        .isInstanceOfSatisfying(
            ControlPlaneException.class, e -> assertCode(e, ErrorCode.PRECONDITION_FAILED));
  }

  @Test
  void anIfMatchOfOnlyWeakTagsSaysWhyItNeverMatches() {
    assertThatThrownBy(() -> VersionMatch.oneOf(Set.of()).check(AT_7))
        .isInstanceOfSatisfying(
            ControlPlaneException.class, e -> assertCode(e, ErrorCode.PRECONDITION_FAILED))
        .hasMessageContaining("no strong entity tag")
        .hasMessageContaining("it is at version 7");
  }

  @Test
  void bothConditionsHoldingLetTheWriteThrough() {
    assertThatCode(() -> VersionMatch.oneOf(Set.of(7L)).andStated(OptionalLong.of(7)).check(AT_7))
        .doesNotThrowAnyException();
    assertThatCode(() -> VersionMatch.NONE.check(AT_7)).doesNotThrowAnyException();
  }

  private static void assertCode(ControlPlaneException e, ErrorCode code) {
    assertThat(e.code()).isEqualTo(code);
  }
}
