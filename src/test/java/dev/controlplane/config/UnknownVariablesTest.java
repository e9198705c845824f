package dev.controlplane.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class UnknownVariablesTest {

  @Test
  void aMisspeltSettingIsReportedWithTheSettingMeant() {
    assertThat(UnknownVariables.in(Map.of("SERVICE_CONTROLPLANE_HEARTBEAT_INTERVALL", "5s")))
        .containsExactly(
            "environment variable SERVICE_CONTROLPLANE_HEARTBEAT_INTERVALL is not a setting and is"
                + " ignored (did you mean SERVICE_CONTROLPLANE_HEARTBEAT_INTERVAL?); the settings"
                + " are listed in docs/configuration.md");
  }

  @Test
  void everySettingAndTheLibertyOnesAreKnownAndOtherPrefixesAreNotLookedAt() {
    assertThat(
            UnknownVariables.in(
                Map.of(
                    "SERVICE_CONTROLPLANE_HEARTBEAT_INTERVAL", "5s",
                    "SERVICE_CONTROLPLANE_DB_POOL_SIZE", "20",
                    "SERVICE_CONTROLPLANE_HTTP_PORT", "9080",
                    "SERVICE_CONTROLPLANE_CONFIG_FILE", "/etc/cp.yaml",
                    "SERVICE_BOOTSTRAP_TOKEN", "x",
                    "PATH", "/usr/bin",
                    "SERVICE_OTHER_THING", "y")))
        .isEmpty();
  }

  @Test
  void everyVariableTheConfigurationReferenceDocumentsIsKnown() throws Exception {
    String reference =
        java.nio.file.Files.readString(java.nio.file.Path.of("docs/configuration.md"));
    var documented =
        java.util.regex.Pattern.compile(
                "\\bSERVICE_(?:CONTROLPLANE|BOOTSTRAP)_[A-Z0-9_]*[A-Z0-9]\\b")
            .matcher(reference)
            .results()
            .map(java.util.regex.MatchResult::group)
            .collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new));
    documented.remove("SERVICE_CONTROLPLANE_TOKEN_TTLL"); // the reference's example of a typo
    assertThat(documented).hasSizeGreaterThan(50);
    assertThat(UnknownVariables.knownNames()).containsAll(documented);
  }

  @Test
  void aNameFarFromEverySettingGetsNoGuess() {
    assertThat(UnknownVariables.in(Map.of("SERVICE_BOOTSTRAP_SOMETHING_ELSE_ENTIRELY", "1")))
        .singleElement()
        .asString()
        .doesNotContain("did you mean");
  }
}
