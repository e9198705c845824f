package dev.controlplane.cli.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.controlplane.cli.CliException;
import dev.controlplane.cli.ExitCodes;
import dev.controlplane.cli.InProcess;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** {@code cpctl audit}'s times and the usage errors it finds before asking any server. */
class AuditCommandTest {

  private static final Instant NOW = Instant.parse("2026-11-24T12:00:00Z");

  private static AuditCommand command() {
    AuditCommand c = new AuditCommand();
    c.clock = Clock.fixed(NOW, ZoneOffset.UTC);
    return c;
  }

  @Test
  void anAgeIsCountedBackFromNow() {
    assertThat(command().instant("--since", "90s")).isEqualTo("2026-11-24T11:58:30Z");
    assertThat(command().instant("--since", "15m")).isEqualTo("2026-11-24T11:45:00Z");
    assertThat(command().instant("--since", "2h")).isEqualTo("2026-11-24T10:00:00Z");
    assertThat(command().instant("--since", "7d")).isEqualTo("2026-11-17T12:00:00Z");
  }

  @Test
  void anRfc3339TimeIsSentInUtc() {
    assertThat(command().instant("--until", "2026-11-24T08:00:00+02:00"))
        .isEqualTo("2026-11-24T06:00:00Z");
    assertThat(command().instant("--until", "2026-11-24T08:00:00.5Z"))
        .isEqualTo("2026-11-24T08:00:00.500Z");
  }

  @Test
  void anythingElseIsAUsageErrorNamingTheOption() {
    for (String bad :
        new String[] {"yesterday", "2026-11-24", "2026-11-24T08:00:00", "5w", "-1h"}) {
      assertThatThrownBy(() -> command().instant("--since", bad))
          .isInstanceOf(CliException.class)
          .hasMessageContaining("--since " + bad + ": not a time")
          .extracting(e -> ((CliException) e).exitCode())
          .isEqualTo(ExitCodes.USAGE);
    }
  }

  @Test
  void badOptionsExitWithTwoBeforeAnyRequest() {
    assertThat(run("audit", "--limit", "0").err()).contains("--limit must be at least 1");
    assertThat(run("audit", "--all-tenants", "-t", "acme").err())
        .contains("--all-tenants and --tenant exclude each other");
    assertThat(run("audit", "-t", "acme", "--until", "noon").err())
        .contains("--until noon: not a time");
  }

  private static InProcess.Run run(String... args) {
    InProcess.Run run = InProcess.cpctl(args);
    assertThat(run.exit()).as(String.join(" ", args) + ": " + run.err()).isEqualTo(ExitCodes.USAGE);
    return run;
  }
}
