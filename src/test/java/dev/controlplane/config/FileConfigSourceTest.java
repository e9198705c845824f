package dev.controlplane.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
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

  @Test
  void specKeysAndSettingNamesBecomeMicroProfileProperties() throws Exception {
    var source =
        source(
            "oidc_allowed_algorithms: [RS256, PS256]\n"
                + "heartbeat_interval: 2s\n"
                + "watch_window: 500\n"
                + "bootstrap_enabled: false\n"
                + "operator_token: ~\n");
    assertThat(source.problem()).isEmpty();
    assertThat(source.getProperties())
        .containsEntry("service.controlplane.oidc.allowed.algorithms", "RS256,PS256")
        .containsEntry("service.controlplane.heartbeat.interval", "2s")
        .containsEntry("service.controlplane.watch.window", "500")
        .containsEntry("service.bootstrap.enabled", "false")
        .doesNotContainKey("service.controlplane.operator.token");
    assertThat(source.getOrdinal()).isLessThan(300).isGreaterThan(100);
  }

  @Test
  void anUnknownKeyIsAProblemNamingTheFileAndTheKey() throws Exception {
    var source = source("heartbeat_intervall: 2s\n");
    assertThat(source.problem())
        .hasValueSatisfying(
            p -> assertThat(p).contains("controlplane.yaml").contains("'heartbeat_intervall'"));
    assertThat(source.getProperties()).isEmpty();
  }

  @Test
  void settingsOnlyLibertyReadsAreRefusedWithTheirEnvironmentVariable() throws Exception {
    assertThat(source("http_port: 9081\n").problem())
        .hasValueSatisfying(p -> assertThat(p).contains("SERVICE_CONTROLPLANE_HTTP_PORT"));
    assertThat(source("db_url: jdbc:postgresql://db/cp\n").problem())
        .hasValueSatisfying(p -> assertThat(p).contains("SERVICE_CONTROLPLANE_DB_URL"));
  }

  @Test
  void malformedYamlAndNonMappingsAreProblems() throws Exception {
    assertThat(source("heartbeat_interval: [2s\n").problem())
        .hasValueSatisfying(p -> assertThat(p).contains("not valid YAML"));
    assertThat(source("heartbeat_interval: 2s\ntoken_ttl: 5m\nheartbeat_interval: 9s\n").problem())
        .hasValueSatisfying(
            p ->
                assertThat(p)
                    .contains("(line 3)")
                    .contains("the key 'heartbeat_interval' appears twice"));
    assertThat(source("- a\n- b\n").problem())
        .hasValueSatisfying(p -> assertThat(p).contains("must be a mapping"));
    assertThat(source("token_ttl: {minutes: 5}\n").problem())
        .hasValueSatisfying(p -> assertThat(p).contains("'token_ttl'"));
  }

  @Test
  void aMissingFileIsAProblemAndNoFileIsNone() {
    assertThat(new FileConfigSource(Optional.of(dir.resolve("absent.yaml"))).problem())
        .hasValueSatisfying(p -> assertThat(p).contains("absent.yaml").contains("cannot be read"));
    assertThat(new FileConfigSource(Optional.empty()).problem()).isEmpty();
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
