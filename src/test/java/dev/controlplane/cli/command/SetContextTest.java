package dev.controlplane.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.cli.ExitCodes;
import dev.controlplane.cli.InProcess;
import dev.controlplane.cli.config.CliConfig;
import dev.controlplane.cli.config.CredentialsConfig;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@code cpctl config set-context} stores when a credential changes form. */
class SetContextTest {

  @TempDir Path dir;

  private InProcess.Run cpctl(String... args) {
    return InProcess.cpctl(Map.of("CPCTL_CONFIG", file().toString()), args);
  }

  private Path file() {
    return dir.resolve("config.yaml");
  }

  private CredentialsConfig credentials() {
    return CliConfig.load(file()).context("c").orElseThrow().credentials;
  }

  @Test
  void switchingATokenToItsVariableDropsTheStoredLiteral() {
    assertThat(cpctl("config", "set-context", "c", "--operator-token", "old-secret").exit())
        .isEqualTo(ExitCodes.OK);
    assertThat(cpctl("config", "set-context", "c", "--broker-token", "old-broker").exit())
        .isEqualTo(ExitCodes.OK);

    assertThat(cpctl("config", "set-context", "c", "--operator-token-env", "OP_TOKEN").exit())
        .isEqualTo(ExitCodes.OK);
    assertThat(cpctl("config", "set-context", "c", "--broker-token-env", "BROKER").exit())
        .isEqualTo(ExitCodes.OK);

    CredentialsConfig stored = credentials();
    assertThat(stored.operatorToken).isNull();
    assertThat(stored.operatorTokenEnv).isEqualTo("OP_TOKEN");
    assertThat(stored.brokerToken).isNull();
    assertThat(stored.brokerTokenEnv).isEqualTo("BROKER");
    assertThat(cpctl("config", "view", "--raw").out()).doesNotContain("old-secret");
  }

  @Test
  void switchingBackToALiteralDropsTheVariable() {
    cpctl("config", "set-context", "c", "--operator-token-env", "OP_TOKEN");
    cpctl("config", "set-context", "c", "--operator-token", "new-secret");
    assertThat(credentials().operatorTokenEnv).isNull();
    assertThat(credentials().operatorToken).isEqualTo("new-secret");
  }

  @Test
  void anotherSettingLeavesTheCredentialsAsTheyWere() {
    cpctl("config", "set-context", "c", "--operator-token-env", "OP_TOKEN");
    cpctl("config", "set-context", "c", "--tenant", "acme");
    assertThat(credentials().operatorTokenEnv).isEqualTo("OP_TOKEN");
  }

  @Test
  void bothFormsAtOnceAreAUsageError() {
    InProcess.Run both =
        cpctl("config", "set-context", "c", "--operator-token", "x", "--operator-token-env", "V");
    assertThat(both.exit()).isEqualTo(ExitCodes.USAGE);
    assertThat(both.err()).contains("--operator-token or --operator-token-env");
  }
}
