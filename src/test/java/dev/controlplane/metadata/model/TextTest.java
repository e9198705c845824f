package dev.controlplane.metadata.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TextTest {

  @Test
  void aLineRefusesEveryControlCharacterAndUnpairedSurrogates() {
    assertThat(Text.isLine("eu-west 1 (Zürich) \uD83D\uDE80")).isTrue();
    assertThat(Text.isLine("")).isTrue();
    for (String bad :
        new String[] {
          "a\u0000b", "a\tb", "a\nb", "\u007f", "\u0085", "\uD800", "x\uDC00", "\uDBFF"
        }) {
      assertThat(Text.isLine(bad)).as("%s", bad.codePoints().boxed().toList()).isFalse();
    }
    assertThat(Text.isLine(null)).isFalse();
  }

  @Test
  void linesAllowTabAndLineBreaksOnly() {
    assertThat(Text.isLines("first line\r\n\tsecond line\n")).isTrue();
    assertThat(Text.isLines("a\u0000b")).isFalse();
    assertThat(Text.isLines("a\u001bb")).isFalse();
    assertThat(Text.isLines("\uDE00 low first")).isFalse();
    assertThat(Text.isLines("high last \uD83D")).isFalse();
  }

  @Test
  void asLineReplacesWhatALineRefusesAndKeepsTheRest() {
    assertThat(Text.asLine("evil\u0000agent\r\n/1.0 \uD83D\uDE80 \uD800"))
        .isEqualTo("evil\uFFFDagent\uFFFD\uFFFD/1.0 \uD83D\uDE80 \uFFFD");
    assertThat(Text.asLine("curl/8.5.0")).isEqualTo("curl/8.5.0");
    assertThat(Text.asLine(null)).isNull();
    assertThat(Text.isLine(Text.asLine("\u0001\uDC00x\u007f"))).isTrue();
  }
}
