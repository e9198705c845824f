package dev.controlplane.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AuditLogTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final List<String> FIELDS =
      List.of(
          "timestamp",
          "event_type",
          "operation",
          "action",
          "result",
          "reason",
          "principal",
          "principal_type",
          "tenant",
          "namespace",
          "stream",
          "resource",
          "metadata",
          "source_ip",
          "user_agent",
          "node",
          "version");

  @Test
  void aRefusedExchangeIsOneLineWithEveryFieldOfTheRowInOrderAndItsTextEscaped() throws Exception {
    String principal = "oidc|https://idp/\"x\"|sub\n1";
    AuditRecord refused =
        new AuditRecord(
            Instant.parse("2026-11-24T21:00:00.123456Z"),
            AuditEntry.of("auth", "token.exchange", "exchange", "acme")
                .with("requested", List.of("stream.publish", "stream.subscribe"))
                .with("limits", Map.of("ttl", 900, "nested", Map.of("ok", true))),
            AuditRecord.REFUSED,
            "no_permission",
            new Actor(principal, Actor.USER, null, "curl/8 \u00e9"),
            "cp1",
            null);

    String line = AuditLog.line(refused);
    JsonNode parsed = JSON.readTree(line);

    assertThat(line).doesNotContain("\n");
    assertThat(fieldNames(parsed)).isEqualTo(FIELDS);
    assertThat(parsed.get("timestamp").asText()).isEqualTo("2026-11-24T21:00:00.123456Z");
    assertThat(parsed.get("principal").asText()).isEqualTo(principal);
    assertThat(parsed.get("user_agent").asText()).isEqualTo("curl/8 \u00e9");
    assertThat(parsed.get("reason").asText()).isEqualTo("no_permission");
    assertThat(parsed.get("source_ip").isNull()).isTrue();
    assertThat(parsed.get("version").isNull()).isTrue();
    assertThat(parsed.get("metadata"))
        .isEqualTo(
            JSON.valueToTree(
                Map.of(
                    "requested",
                    List.of("stream.publish", "stream.subscribe"),
                    "limits",
                    Map.of("ttl", 900, "nested", Map.of("ok", true)))));
    assertThat(AuditLog.tree(refused)).isEqualTo(parsed);
  }

  @Test
  void aCommittedChangeCarriesItsVersionAsANumberBeyondTheDoubleRange() throws Exception {
    AuditRecord committed =
        new AuditRecord(
            Instant.EPOCH,
            AuditEntry.of("metadata", "namespace.create", "create", "acme"),
            AuditRecord.SUCCESS,
            null,
            new Actor("operator", Actor.OPERATOR, "127.0.0.1", null),
            "cp2",
            9_007_199_254_740_993L);

    JsonNode parsed = JSON.readTree(AuditLog.line(committed));

    assertThat(fieldNames(parsed)).isEqualTo(FIELDS);
    assertThat(parsed.get("version").isIntegralNumber()).isTrue();
    assertThat(parsed.get("version").asLong()).isEqualTo(9_007_199_254_740_993L);
    assertThat(parsed.get("reason").isNull()).isTrue();
    assertThat(parsed.get("metadata").size()).isZero();
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
