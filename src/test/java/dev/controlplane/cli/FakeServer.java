package dev.controlplane.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.controlplane.cli.client.ApiClient;
import dev.controlplane.cli.client.Credentials;
import dev.controlplane.cli.config.CredentialsConfig;
import dev.controlplane.cli.config.Target;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A node of the HTTP API for cpctl's tests, on 127.0.0.1: one handler answers every request, and
 * each request is recorded as {@code METHOD /path}, so that a test can prove what was (not) sent.
 * Requests are handled in parallel, as a real node does.
 */
public final class FakeServer implements AutoCloseable {

  /** Answers one request. */
  public interface Handler {
    void handle(HttpExchange exchange) throws IOException;
  }

  private final HttpServer server;
  private final ExecutorService executor = Executors.newCachedThreadPool();
  private final List<String> requests = new CopyOnWriteArrayList<>();

  private FakeServer(Handler handler) throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setExecutor(executor);
    server.createContext(
        "/",
        exchange -> {
          requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath());
          handler.handle(exchange);
        });
    server.start();
  }

  public static FakeServer start(Handler handler) throws IOException {
    return new FakeServer(handler);
  }

  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Every request so far, as {@code METHOD /path}. */
  public List<String> requests() {
    return List.copyOf(requests);
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  /** A JSON answer; {@code application/problem+json} from 400 on. */
  public static void answer(HttpExchange exchange, int status, String json) throws IOException {
    exchange.getRequestBody().readAllBytes();
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    exchange
        .getResponseHeaders()
        .add("Content-Type", status >= 400 ? "application/problem+json" : "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }

  /** A problem+json error with {@code code} and {@code detail}. */
  public static void problem(HttpExchange exchange, int status, String code, String detail)
      throws IOException {
    answer(
        exchange,
        status,
        "{\"type\":\"about:blank\",\"title\":\"Error\",\"status\":"
            + status
            + ",\"code\":\""
            + code
            + "\",\"detail\":\""
            + detail
            + "\"}");
  }

  /** The request body echoed with 201, as a create answers. */
  public static void created(HttpExchange exchange) throws IOException {
    answer(
        exchange,
        201,
        new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
  }

  /** Reads the whole request, then closes the connection without an answer: a node gone away. */
  public static void hangUp(HttpExchange exchange) throws IOException {
    exchange.getRequestBody().readAllBytes();
    exchange.close();
  }

  /** A URL on which nothing listens: every connection is refused. */
  public static String refusingUrl() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return "http://127.0.0.1:" + socket.getLocalPort();
    }
  }

  /** A client of {@code urls}, in that order, with a bearer token and {@code env} besides. */
  public static ApiClient client(Map<String, String> env, String... urls) {
    Map<String, String> all = new java.util.HashMap<>(env);
    all.putIfAbsent("CPCTL_TOKEN", "t");
    Target target =
        new Target(
            "test",
            Arrays.stream(urls).map(URI::create).toList(),
            List.of(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            new CredentialsConfig(),
            all);
    return new ApiClient(target, new Credentials(target));
  }
}
