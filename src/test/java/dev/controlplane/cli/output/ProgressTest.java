package dev.controlplane.cli.output;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class ProgressTest {

  @Test
  void alwaysReportsEveryTenthOfTheWorkAndAFinalLine() {
    StringWriter text = new StringWriter();
    try (Progress progress =
        Progress.start(new PrintWriter(text), Progress.Mode.ALWAYS, "apply", 1000)) {
      for (int i = 0; i < 1000; i++) {
        progress.add(1);
      }
    }
    var lines = text.toString().lines().toList();
    assertThat(lines).hasSize(10);
    assertThat(lines.get(0)).startsWith("apply: 100/1000 (10%)");
    assertThat(lines.get(8)).startsWith("apply: 900/1000 (90%)");
    assertThat(lines.get(9)).startsWith("apply: 1000/1000 (100%)").doesNotContain("left");
  }

  @Test
  void neverPrintsNothing() {
    StringWriter text = new StringWriter();
    try (Progress progress =
        Progress.start(new PrintWriter(text), Progress.Mode.NEVER, "apply", 10)) {
      progress.add(10);
    }
    assertThat(text.toString()).isEmpty();
  }
}
