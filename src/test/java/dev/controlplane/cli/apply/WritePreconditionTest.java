package dev.controlplane.cli.apply;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class WritePreconditionTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode doc(String json) throws Exception {
    return JSON.readTree(json);
  }

  @Test
  void theDocumentsOwnVersionIsTheConditionEvenWhenTheObjectMovedOn() throws Exception {
    var precondition =
        WritePrecondition.of(
            doc("{\"metadata\":{\"name\":\"a\",\"version\":7}}"),
            doc("{\"metadata\":{\"version\":9}}"));
    assertThat(precondition.expectedVersion()).isEqualTo(7);
    assertThat(
            precondition
                .body(doc("{\"metadata\":{\"name\":\"a\",\"version\":7},\"spec\":{}}"))
                .path("metadata")
                .path("version")
                .asLong())
        .isEqualTo(7);
    assertThat(precondition.describeConflict(9))
        .contains("the file has metadata.version 7")
        .contains("version 9");
  }

  @Test
  void withoutAVersionTheOneReadBeforeTheWriteIsTheConditionAndZeroMeansItMustNotExist()
      throws Exception {
    var over =
        WritePrecondition.of(
            doc("{\"kind\":\"Tenant\",\"spec\":{}}"), doc("{\"metadata\":{\"version\":12}}"));
    assertThat(over.expectedVersion()).isEqualTo(12);
    var body = over.body(doc("{\"kind\":\"Tenant\",\"spec\":{}}"));
    assertThat(body.path("metadata").path("version").asLong()).isEqualTo(12);
    assertThat(body.path("kind").asText()).isEqualTo("Tenant");
    assertThat(
            WritePrecondition.of(doc("{\"metadata\":{\"version\":\"latest\"}}"), null)
                .expectedVersion())
        .isZero();
  }

  @Test
  void onlyAStaleWriteIsAConflictNotOtherRefusals() throws Exception {
    var precondition = WritePrecondition.of(doc("{}"), doc("{\"metadata\":{\"version\":5}}"));
    assertThat(precondition.isConflict(409, 6)).isTrue();
    assertThat(precondition.isConflict(412, 6)).as("If-Match, later").isTrue();
    assertThat(precondition.isConflict(409, 5))
        .as("an immutable field, a stream being deleted")
        .isFalse();
    assertThat(precondition.isConflict(404, 6)).isFalse();
    assertThat(precondition.describeConflict(0)).contains("it does not exist");
  }
}
