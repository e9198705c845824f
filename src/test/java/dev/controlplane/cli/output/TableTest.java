package dev.controlplane.cli.output;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class TableTest {

  @Test
  void columnsArePaddedToTheirWidestCellWithoutTrailingBlanksAndEmptyCellsSayNone() {
    StringWriter text = new StringWriter();
    new Table("name", "shards", "description")
        .row("orders", 4, "")
        .row("a", 1024, "x")
        .print(new PrintWriter(text));
    assertThat(text.toString().lines())
        .containsExactly(
            "NAME     SHARDS   DESCRIPTION", "orders   4        <none>", "a        1024     x");
  }
}
