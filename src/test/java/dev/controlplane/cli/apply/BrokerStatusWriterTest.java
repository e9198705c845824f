package dev.controlplane.cli.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.controlplane.cli.client.ApiException;
import dev.controlplane.cli.resource.Kind;
import dev.controlplane.cli.resource.ResourceRef;
import org.junit.jupiter.api.Test;

/** The documents a broker status write answers without asking the server (no gRPC client here). */
class BrokerStatusWriterTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ResourceRef REF = ResourceRef.of(Kind.BROKER, null, null, "b1");
  private final BrokerStatusWriter writer = new BrokerStatusWriter(null);

  private static JsonNode broker(String status, Long version) throws Exception {
    return JSON.readTree(
        "{\"apiVersion\":\"controlplane/v1\",\"kind\":\"Broker\",\"metadata\":{\"name\":\"b1\""
            + (version == null ? "" : ",\"version\":" + version)
            + "},\"spec\":{\"status\":\""
            + status
            + "\",\"address\":\"127.0.0.1:1\"}}");
  }

  private JsonNode write(JsonNode doc, JsonNode live) {
    return writer.write(REF, doc, live, WritePrecondition.of(doc, live), false);
  }

  @Test
  void aDownBrokerAppliedBackAsItWasReadIsLeftAsItIs() throws Exception {
    JsonNode live = broker("down", 12L);
    assertThat(write(broker("down", 12L), live)).isEqualTo(live);
    assertThat(write(broker("down", null), live)).as("without metadata.version").isEqualTo(live);
  }

  @Test
  void aDownBrokerAppliedFromAnOlderReadIsAConflict() throws Exception {
    assertThatThrownBy(() -> write(broker("down", 9L), broker("down", 12L)))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(409);
              assertThat(e.getMessage()).contains("version 12");
            });
  }

  @Test
  void downCannotBeSetOnALiveBrokerAndNothingOnAnUnregisteredOne() throws Exception {
    assertThatThrownBy(() -> write(broker("down", null), broker("active", 3L)))
        .isInstanceOf(BrokerStatusWriter.Invalid.class)
        .hasMessageContaining("set by failure detection only; broker b1 is active");
    assertThatThrownBy(() -> write(broker("down", null), null))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(404));
    assertThatThrownBy(() -> write(broker("paused", null), broker("active", 3L)))
        .isInstanceOf(BrokerStatusWriter.Invalid.class)
        .hasMessageContaining("must be active or draining");
  }
}
