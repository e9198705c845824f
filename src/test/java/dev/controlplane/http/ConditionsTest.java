package dev.controlplane.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.metadata.VersionMatch;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ConditionsTest {

  @Test
  void noHeaderSetsNoCondition() {
    assertThat(Conditions.ifMatch(null)).isEqualTo(VersionMatch.NONE);
  }

  @Test
  void aStarRequiresTheResourceToExist() {
    assertThat(Conditions.ifMatch(" * ").kind()).isEqualTo(VersionMatch.Kind.EXISTS);
  }

  @Test
  void quotedTagsAreTheVersionsThatMatch() {
    assertThat(Conditions.ifMatch("\"42\"")).isEqualTo(VersionMatch.oneOf(Set.of(42L)));
    assertThat(Conditions.ifMatch("\"42\", \"7\" ,\"9\"").versions()).containsOnly(42L, 7L, 9L);
  }

  @Test
  void weakAndForeignTagsNeverMatch() {
    var match = Conditions.ifMatch("W/\"42\", \"abc\", \"99999999999999999999\"");
    assertThat(match.kind()).isEqualTo(VersionMatch.Kind.ONE_OF);
    assertThat(match.versions()).isEmpty();
  }

  @Test
  void unquotedOrGarbledValuesAreRefused() {
    for (String bad : new String[] {"42", "\"42", "\"42\" 43", ""}) {
      assertThatThrownBy(() -> Conditions.ifMatch(bad))
          .as(bad)
          .isInstanceOfSatisfying(
              ControlPlaneException.class, e -> assertThat(e.getMessage()).contains("If-Match"));
    }
  }
}
