package dev.controlplane.cli.apply;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class DiffTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void changedAddedAndRemovedFieldsAreListedByPathAndEmptyStringsCountAsAbsent() throws Exception {
    var before =
        JSON.readTree(
            "{\"metadata\":{\"version\":3},\"spec\":{\"description\":\"\",\"retention\":{\"time\":\"7d\",\"size\":\"1GB\"},\"shards\":4}}");
    var after =
        JSON.readTree(
            "{\"metadata\":{\"version\":4},\"spec\":{\"description\":\"orders\",\"retention\":{\"time\":\"14d\"},\"shards\":4}}");
    assertThat(Diff.between(before, after))
        .containsExactly(
            "spec.description: (none) -> orders",
            "spec.retention.size: 1GB -> (none)",
            "spec.retention.time: 7d -> 14d");
    assertThat(Diff.between(after, after)).isEmpty();
  }
}
