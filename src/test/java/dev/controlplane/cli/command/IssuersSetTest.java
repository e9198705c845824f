package dev.controlplane.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.controlplane.cli.InProcess;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code cpctl issuers set} keeps the claim mappings it is not told to change. */
class IssuersSetTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ISSUER = "https://login.example.com/";

  private HttpServer server;
  private final List<JsonNode> posted = new ArrayList<>();
  private volatile String stored = "{\"idp_issuers\": []}";

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/v1/tenants/acme/idp-issuers",
        exchange -> {
          if (exchange.getRequestMethod().equals("GET")) {
            answer(exchange, 200, stored);
            return;
          }
          byte[] body = exchange.getRequestBody().readAllBytes();
          synchronized (posted) {
            posted.add(JSON.readTree(body));
          }
          answer(exchange, 200, new String(body, StandardCharsets.UTF_8));
        });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  void changingAnAudienceKeepsTheGroupsPrefixAndClaim() {
    stored =
        "{\"idp_issuers\": [{\"issuer\": \""
            + ISSUER
            + "\", \"audiences\": [\"old\"], \"jwks_url\": \"https://login.example.com/keys\","
            + " \"claim_mappings\": {\"subject_claim\": \"sub\", \"groups_claim\": \"groups\","
            + " \"groups_prefix\": \"partner/\"}}]}";
    InProcess.Run run = set("--audience", "new", "--jwks-url", "https://login.example.com/keys");
    assertThat(run.exit()).as(run.err()).isZero();
    JsonNode claims = lastPosted().path("claim_mappings");
    assertThat(claims.path("groups_prefix").asText()).isEqualTo("partner/");
    assertThat(claims.path("groups_claim").asText()).isEqualTo("groups");
    assertThat(lastPosted().path("audiences").get(0).asText()).isEqualTo("new");
  }

  @Test
  void anEmptyValueClearsAMapping() {
    stored =
        "{\"idp_issuers\": [{\"issuer\": \""
            + ISSUER
            + "\", \"audiences\": [\"a\"], \"jwks_url\": \"https://login.example.com/keys\","
            + " \"claim_mappings\": {\"subject_claim\": \"sub\", \"groups_claim\": \"groups\","
            + " \"groups_prefix\": \"partner/\"}}]}";
    InProcess.Run run =
        set(
            "--audience",
            "a",
            "--jwks-url",
            "https://login.example.com/keys",
            "--groups-prefix",
            "",
            "--groups-claim",
            "");
    assertThat(run.exit()).as(run.err()).isZero();
    JsonNode claims = lastPosted().path("claim_mappings");
    assertThat(claims.path("groups_prefix").asText()).isEmpty();
    assertThat(claims.path("groups_claim").isNull()).isTrue();
  }

  @Test
  void aNewIssuerGetsOnlyTheMappingsGiven() {
    InProcess.Run run =
        set(
            "--audience",
            "a",
            "--discovery-url",
            "https://login.example.com/.well-known/openid-configuration",
            "--groups-prefix",
            "p/");
    assertThat(run.exit()).as(run.err()).isZero();
    JsonNode claims = lastPosted().path("claim_mappings");
    assertThat(claims.path("groups_prefix").asText()).isEqualTo("p/");
    assertThat(claims.has("groups_claim")).isFalse();
    assertThat(claims.has("subject_claim")).isFalse();
  }

  private JsonNode lastPosted() {
    synchronized (posted) {
      assertThat(posted).hasSize(1);
      return posted.get(0);
    }
  }

  private InProcess.Run set(String... options) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "-s",
                "http://127.0.0.1:" + server.getAddress().getPort(),
                "issuers",
                "set",
                ISSUER,
                "-t",
                "acme"));
    args.addAll(List.of(options));
    return InProcess.cpctl(
        Map.of("CPCTL_TOKEN", "t", "CPCTL_REQUEST_TIMEOUT", "5"), args.toArray(String[]::new));
  }

  private static void answer(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }
}
