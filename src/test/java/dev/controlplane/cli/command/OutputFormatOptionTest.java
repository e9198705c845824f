package dev.controlplane.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.cli.ExitCodes;
import dev.controlplane.cli.InProcess;
import org.junit.jupiter.api.Test;

class OutputFormatOptionTest {

  @Test
  void anUnknownFormatIsAUsageErrorListingTheFormatsNotAJavaException() {
    InProcess.Run run = InProcess.cpctl("get", "tenants", "-o", "xml");
    assertThat(run.exit()).isEqualTo(ExitCodes.USAGE);
    assertThat(run.err())
        .contains("'xml' is not a format; use table, yaml, json or name")
        .doesNotContain("java.lang")
        .doesNotContain("enum constant");
  }
}
