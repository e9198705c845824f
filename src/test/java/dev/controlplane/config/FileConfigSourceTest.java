package dev.controlplane.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileConfigSourceTest {

  @TempDir Path dir;

  private FileConfigSource source(String yaml) throws Exception {
    Path file = dir.resolve("controlplane.yaml");
    Files.writeString(file, yaml);
    return new FileConfigSource(Optional.of(file));
  }

  /** The one problem of a file. */
  private String problemOf(String yaml) throws Exception {
    List<String> problems = source(yaml).problems();
    assertThat(problems).hasSize(1);
    return problems.get(0);
  }

  @Test
  void specKeysAndSettingNamesBecomeMicroProfileProperties() throws Exception {
    var source =
        source(
            "oidc_allowed_algorithms: [RS256, PS256]\n"
                + "heartbeat_interval: 2s\n"
                + "watch_window: 500\n"
                + "bootstrap_enabled: false\n"
                + "operator_token: ~\n");
    assertThat(source.problems()).isEmpty();
    assertThat(source.getProperties())
        .containsEntry("service.controlplane.oidc.allowed.algorithms", "RS256,PS256")
        .containsEntry("service.controlplane.heartbeat.interval", "2s")
        .containsEntry("service.controlplane.watch.window", "500")
        .containsEntry("service.bootstrap.enabled", "false")
        .doesNotContainKey("service.controlplane.operator.token");
    assertThat(source.getOrdinal()).isLessThan(300).isGreaterThan(100);
  }

  @Test
  void everyUnusableKeyIsAProblemNamingTheFileAndTheKeyWhileTheUsableOnesApply() throws Exception {
    var source =
        source(
            "heartbeat_intervall: 2s\n"
                + "watch_window: 500\n"
                + "http_port: 9081\n"
                + "token_ttl: {minutes: 5}\n");
    assertThat(source.problems())
        .hasSize(3)
        .allSatisfy(p -> assertThat(p).contains("controlplane.yaml"))
        .anySatisfy(p -> assertThat(p).contains("'heartbeat_intervall' is not a setting"))
        .anySatisfy(p -> assertThat(p).contains("SERVICE_CONTROLPLANE_HTTP_PORT"))
        .anySatisfy(p -> assertThat(p).contains("'token_ttl'"));
    assertThat(source.getProperties())
        .containsOnlyKeys("service.controlplane.watch.window")
        .containsEntry("service.controlplane.watch.window", "500");
  }

  @Test
  void settingsOnlyLibertyReadsAreRefusedWithTheirEnvironmentVariable() throws Exception {
    assertThat(problemOf("http_port: 9081\n")).contains("SERVICE_CONTROLPLANE_HTTP_PORT");
    assertThat(problemOf("db_url: jdbc:postgresql://db/cp\n"))
        .contains("SERVICE_CONTROLPLANE_DB_URL");
  }

  @Test
  void aFileThatIsNotYamlOrNotAMappingIsOneProblemAndGivesNoValue() throws Exception {
    assertThat(problemOf("heartbeat_interval: [2s\n")).contains("not valid YAML");
    assertThat(problemOf("heartbeat_interval: 2s\ntoken_ttl: 5m\nheartbeat_interval: 9s\n"))
        .contains("(line 3)")
        .contains("the key 'heartbeat_interval' appears twice");
    assertThat(problemOf("- a\n- b\n")).contains("must be a mapping");
    assertThat(source("heartbeat_interval: 2s\nwatch_window: [500\n").getProperties()).isEmpty();
  }

  @Test
  void aMissingFileIsAProblemAndNoFileIsNone() throws Exception {
    assertThat(new FileConfigSource(Optional.of(dir.resolve("absent.yaml"))).problems())
        .singleElement()
        .satisfies(p -> assertThat(p).contains("absent.yaml").contains("cannot be read"));
    assertThat(new FileConfigSource(Optional.empty()).problems()).isEmpty();
  }

  @Test
  void everyDeclaredSettingIsAFileKeyAndMapsBack() {
    assertThat(FileSettings.knownKeys())
        .contains("oidc_allowed_algorithms", "key_encryption_key", "bootstrap_bind_addr")
        .allSatisfy(
            k ->
                assertThat(FileSettings.property(k).replace("service.", ""))
                    .isIn(
                        "controlplane." + k.replace('_', '.'),
                        k.replaceFirst("^bootstrap_", "bootstrap.").replace('_', '.')));
  }
}
