package dev.controlplane.cli.resource;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class KindTest {

  private static String status(String spec) throws Exception {
    JsonNode doc = new ObjectMapper().readTree("{\"spec\": " + spec + "}");
    Kind.Column column =
        Kind.BROKER.columns().stream()
            .filter(c -> c.header().equals("STATUS"))
            .findFirst()
            .orElseThrow();
    return column.value().apply(doc);
  }

  @Test
  void theBrokerStatusColumnShowsThatADownBrokerComesBackDraining() throws Exception {
    assertThat(status("{\"status\": \"down\", \"drain_requested\": true}"))
        .isEqualTo("down,drain-requested");
    assertThat(status("{\"status\": \"down\"}")).isEqualTo("down");
    assertThat(status("{\"status\": \"draining\", \"drain_requested\": true}"))
        .isEqualTo("draining");
    assertThat(status("{\"status\": \"active\"}")).isEqualTo("active");
  }
}
