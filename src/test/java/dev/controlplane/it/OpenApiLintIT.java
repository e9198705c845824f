package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.it.support.Commands;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The HTTP contract lints clean with Redocly ({@code recommended}) and Spectral ({@code
 * spectral:oas}), installed from the npm registry by scripts/lint-openapi. Skipped only when
 * Node.js is not installed at all; a node without npm, an install that fails or any finding fails
 * the test (docs/api.md, "The contract").
 */
class OpenApiLintIT {

  @Test
  void theContractLintsCleanWithRedoclyAndSpectral() throws Exception {
    Assumptions.assumeTrue(
        Commands.onPath("node"), "Node.js is not installed: scripts/lint-openapi cannot run here");
    Process lint = new ProcessBuilder("scripts/lint-openapi").redirectErrorStream(true).start();
    String output = new String(lint.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(lint.waitFor(10, TimeUnit.MINUTES)).as("lint finished").isTrue();
    assertThat(lint.exitValue()).as(output).isZero();
    assertThat(output).contains("lint clean");
  }
}
