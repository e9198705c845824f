package dev.controlplane.cli.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.controlplane.cli.CliException;
import dev.controlplane.cli.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CliConfigTest {

  @TempDir Path dir;

  @Test
  void theFileLivesUnderHomeUnlessXdgConfigHomeOrCpctlConfigSayOtherwise() {
    assertThat(CliConfig.location(Map.of("HOME", "/home/op")))
        .isEqualTo(Path.of("/home/op/.config/cpctl/config.yaml"));
    assertThat(CliConfig.location(Map.of("HOME", "/home/op", "XDG_CONFIG_HOME", "/cfg")))
        .isEqualTo(Path.of("/cfg/cpctl/config.yaml"));
    assertThat(CliConfig.location(Map.of("HOME", "/home/op", "CPCTL_CONFIG", "/x/c.yaml")))
        .isEqualTo(Path.of("/x/c.yaml"));
  }

  @Test
  void aSavedConfigurationIsPrivateAndReadsBackWithItsContexts() throws Exception {
    CliConfig config = new CliConfig();
    ContextConfig local = config.contextForUpdate("local");
    local.servers = List.of("http://127.0.0.1:9080");
    local.credentials.operatorToken = "secret-operator";
    config.contextForUpdate("prod").tenant = "acme";
    Path file = dir.resolve("sub/config.yaml");
    config.save(file);

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    CliConfig read = CliConfig.load(file);
    assertThat(read.currentContext).as("the first context becomes current").isEqualTo("local");
    assertThat(read.context("local").orElseThrow().credentials.operatorToken)
        .isEqualTo("secret-operator");
    assertThat(read.context("prod").orElseThrow().tenant).isEqualTo("acme");
    assertThat(read.redactedYaml()).doesNotContain("secret-operator").contains("REDACTED");
    assertThat(CliConfig.load(dir.resolve("none.yaml")).contexts).isEmpty();
  }

  @Test
  void aMistypedSettingIsAConfigurationError() throws Exception {
    Path file = dir.resolve("config.yaml");
    Files.writeString(file, "contexts:\n- name: a\n  sever: http://x\n");
    assertThatThrownBy(() -> CliConfig.load(file))
        .isInstanceOfSatisfying(
            CliException.class, e -> assertThat(e.exitCode()).isEqualTo(ExitCodes.CONFIG))
        .hasMessageContaining("sever");
  }
}
