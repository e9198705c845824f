package dev.controlplane.cli.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.controlplane.cli.CliException;
import dev.controlplane.cli.ExitCodes;
import dev.controlplane.cli.config.Target;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The HTTP API. A request goes to the server that answered last. A 503 {@code not_leader} is
 * retried once on the leader it names ({@code leader_url}), which then serves the following
 * requests. A read moves to the next server of the context when one cannot be reached, times out or
 * answers 503. A write moves on only when it certainly stored nothing: it never reached the server,
 * or the 503 says it was refused before writing; otherwise it ends in {@link
 * OutcomeUnknownException}, never sent twice. Errors come back as {@link ApiException} with the
 * server's problem; no server at all as {@link NotServedException}.
 */
public final class ApiClient {

  static final ObjectMapper JSON = new ObjectMapper();

  /**
   * A request: method, path, query, optional JSON body, the tenant it concerns (for auth), and
   * whether it may be sent to another node after an answer that does not say whether it was stored.
   */
  public record Call(
      String method,
      String path,
      Map<String, String> query,
      JsonNode body,
      String tenant,
      boolean repeatable) {

    /** A GET is repeatable; another method only once {@link #markRepeatable()} says so. */
    public static Call of(String method, String path) {
      return new Call(method, path, new LinkedHashMap<>(), null, null, method.equals("GET"));
    }

    public Call query(String name, String value) {
      if (value != null) {
        query.put(name, value);
      }
      return this;
    }

    public Call body(JsonNode json) {
      return new Call(method, path, query, json, tenant, repeatable);
    }

    public Call tenant(String name) {
      return new Call(method, path, query, body, name, repeatable);
    }

    /** For a write that stores nothing another try could trip over (a token exchange). */
    public Call markRepeatable() {
      return new Call(method, path, query, body, tenant, true);
    }

    String pathAndQuery() {
      if (query.isEmpty()) {
        return path;
      }
      return path
          + "?"
          + query.entrySet().stream()
              .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
              .collect(Collectors.joining("&"));
    }
  }

  /** A successful answer: its status and JSON body (null when it has none). */
  public record Response(int status, JsonNode body) {}

  private final List<URI> servers;
  private final HttpClient http;
  private final Credentials credentials;
  private volatile URI current;

  private final Duration requestTimeout;

  public ApiClient(Target target, Credentials credentials) {
    this.servers = target.servers();
    this.requestTimeout = target.requestTimeout();
    this.current = servers.get(0);
    this.credentials = credentials;
    HttpClient.Builder builder =
        HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1);
    target.caFile().ifPresent(ca -> builder.sslContext(Tls.trusting(ca)));
    this.http = builder.build();
    credentials.exchangeWith(this::exchange);
  }

  public Response send(Call call) {
    return send(call, credentials.bearer(call.tenant()));
  }

  /** Sends {@code call} with {@code bearer} (null: no Authorization header). */
  public Response send(Call call, String bearer) {
    List<String> failures = new ArrayList<>();
    for (URI base : order()) {
      URI node = base;
      Attempt attempt = attempt(node, call, bearer);
      if (attempt.leader() != null) {
        failures.add(node + ": " + attempt.describe());
        node = attempt.leader();
        attempt = attempt(node, call, bearer);
      }
      if (attempt.response() != null) {
        current = node;
        return attempt.response();
      }
      failures.add(node + ": " + attempt.describe());
      endIfFinal(call, attempt, failures);
    }
    throw new NotServedException(
        "no server could serve the request: " + String.join("; ", failures));
  }

  /**
   * Ends the request where no other node may be asked: a refusal every node would repeat (anything
   * but 503), or a write that may have been stored. Sent again, such a write would meet itself as
   * someone else's change: a create answered {@code conflict}, a delete {@code not_found}.
   */
  private static void endIfFinal(Call call, Attempt attempt, List<String> failures) {
    if (attempt.problem() != null && attempt.problem().status() != 503) {
      throw new ApiException(attempt.problem());
    }
    if (attempt.mayHaveStored() && !mayRepeat(call)) {
      throw new OutcomeUnknownException(
          call.method()
              + " "
              + call.path()
              + " may or may not have been stored ("
              + String.join("; ", failures)
              + "); read it before trying again");
    }
  }

  /** Reads, dry runs (which store nothing) and calls marked repeatable may go to another node. */
  private static boolean mayRepeat(Call call) {
    return call.repeatable() || call.query().containsKey("dryRun");
  }

  private List<URI> order() {
    List<URI> order = new ArrayList<>();
    order.add(current);
    servers.stream().filter(s -> !s.equals(current)).forEach(order::add);
    return order;
  }

  private Attempt attempt(URI base, Call call, String bearer) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(base + call.pathAndQuery()))
            .timeout(requestTimeout)
            .header("Accept", "application/json");
    if (bearer != null) {
      request.header("Authorization", "Bearer " + bearer);
    }
    if (call.body() != null) {
      request.header("Content-Type", "application/json");
      request.method(call.method(), HttpRequest.BodyPublishers.ofString(call.body().toString()));
    } else {
      request.method(call.method(), HttpRequest.BodyPublishers.noBody());
    }
    try {
      return Attempt.of(http.send(request.build(), HttpResponse.BodyHandlers.ofString()));
    } catch (IOException e) {
      return Attempt.of(e, requestTimeout);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliException(ExitCodes.INTERRUPTED, "interrupted");
    }
  }

  static JsonNode parse(String body) {
    if (body == null || body.isBlank()) {
      return null;
    }
    try {
      return JSON.readTree(body);
    } catch (IOException notJson) {
      return null;
    }
  }

  /** The token exchange: an upstream token for a service token of {@code tenant}. */
  public String exchange(String tenant, String upstreamToken) {
    return exchange(tenant, upstreamToken, JSON.createObjectNode())
        .body()
        .path("service_token")
        .asText();
  }

  public Response exchange(String tenant, String upstreamToken, JsonNode hints) {
    return send(
        Call.of("POST", "/v1/tenants/" + tenant + "/token/exchange").body(hints).markRepeatable(),
        upstreamToken);
  }

  /** The URL of the server that answered last. */
  public URI currentServer() {
    return current;
  }

  /** The raw HTTP client with this context's TLS settings (cluster status asks each node). */
  public HttpClient http() {
    return http;
  }
}
