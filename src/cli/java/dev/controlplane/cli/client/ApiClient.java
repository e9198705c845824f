package dev.controlplane.cli.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.controlplane.cli.CliException;
import dev.controlplane.cli.ExitCodes;
import dev.controlplane.cli.config.Target;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
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
 * The HTTP API. A request goes to the server that answered last; when that one cannot be reached,
 * or answers 503 {@code unavailable} (it knows no leader), to the next one of the context. A 503
 * {@code not_leader} is retried once on the leader it names ({@code leader_url}), which then serves
 * the following requests. Errors come back as {@link ApiException} with the server's problem.
 */
public final class ApiClient {

  static final ObjectMapper JSON = new ObjectMapper();

  /** A request: method, path, query, optional JSON body, and the tenant it concerns (for auth). */
  public record Call(
      String method, String path, Map<String, String> query, JsonNode body, String tenant) {

    public static Call of(String method, String path) {
      return new Call(method, path, new LinkedHashMap<>(), null, null);
    }

    public Call query(String name, String value) {
      if (value != null) {
        query.put(name, value);
      }
      return this;
    }

    public Call body(JsonNode json) {
      return new Call(method, path, query, json, tenant);
    }

    public Call tenant(String name) {
      return new Call(method, path, query, body, name);
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
    List<URI> order = order();
    for (URI base : order) {
      Attempt attempt = attempt(base, call, bearer);
      if (attempt.response != null) {
        current = base;
        return attempt.response;
      }
      if (attempt.problem != null && attempt.problem.code().equals("not_leader")) {
        URI leader = attempt.leader;
        if (leader != null) {
          Attempt retried = attempt(leader, call, bearer);
          if (retried.response != null) {
            current = leader;
            return retried.response;
          }
          failures.add(leader + ": " + retried.describe());
          throwIfRefused(retried);
          continue;
        }
      }
      throwIfRefused(attempt);
      failures.add(base + ": " + attempt.describe());
    }
    throw new CliException(
        ExitCodes.UNREACHABLE, "no server could serve the request: " + String.join("; ", failures));
  }

  /** A refusal that another node would repeat (anything but 503 or a connection failure). */
  private static void throwIfRefused(Attempt attempt) {
    if (attempt.problem != null && attempt.problem.status() != 503) {
      throw new ApiException(attempt.problem);
    }
  }

  private List<URI> order() {
    List<URI> order = new ArrayList<>();
    order.add(current);
    servers.stream().filter(s -> !s.equals(current)).forEach(order::add);
    return order;
  }

  /** One try on one server: a response, a problem, or a connection failure. */
  private record Attempt(Response response, Problem problem, URI leader, String failure) {
    String describe() {
      return problem != null ? problem.oneLine() : failure;
    }
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
      HttpResponse<String> response =
          http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      return interpret(response);
    } catch (ConnectException e) {
      return new Attempt(null, null, null, "connection refused");
    } catch (HttpConnectTimeoutException e) {
      return new Attempt(null, null, null, "connect timed out");
    } catch (IOException e) {
      return new Attempt(null, null, null, "connection failed (" + describe(e) + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliException(ExitCodes.INTERRUPTED, "interrupted");
    }
  }

  private static Attempt interpret(HttpResponse<String> response) {
    JsonNode body = parse(response.body());
    int status = response.statusCode();
    if (status < 300) {
      return new Attempt(new Response(status, body), null, null, null);
    }
    Problem problem = Problem.of(status, body, response.body());
    URI leader = null;
    if (body != null && !body.path("leader_url").asText("").isEmpty()) {
      leader = URI.create(body.path("leader_url").asText().replaceAll("/+$", ""));
    }
    return new Attempt(null, problem, leader, null);
  }

  private static JsonNode parse(String body) {
    if (body == null || body.isBlank()) {
      return null;
    }
    try {
      return JSON.readTree(body);
    } catch (IOException notJson) {
      return null;
    }
  }

  private static String describe(Exception e) {
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
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
        Call.of("POST", "/v1/tenants/" + tenant + "/token/exchange").body(hints), upstreamToken);
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
