package dev.controlplane.it.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** A small HTTP client for the control plane's API. */
public final class Http {

  public static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient CLIENT =
      HttpClient.newBuilder()
          .connectTimeout(Duration.ofSeconds(5))
          .version(HttpClient.Version.HTTP_1_1)
          .build();

  private final int port;
  private final String token;
  private final Duration timeout;

  public Http(int port, String token) {
    this(port, token, Duration.ofSeconds(30));
  }

  private Http(int port, String token, Duration timeout) {
    this.port = port;
    this.token = token;
    this.timeout = timeout;
  }

  /** The same client giving up on a request after {@code requestTimeout}. */
  public Http withTimeout(Duration requestTimeout) {
    return new Http(port, token, requestTimeout);
  }

  public static Http shared() {
    return new Http(SharedServer.httpPort(), SharedServer.OPERATOR_TOKEN);
  }

  /** A response: status, content type, body (parsed when it is JSON). */
  public record Reply(int status, String contentType, String body, HttpResponse<String> raw) {
    public JsonNode json() {
      try {
        return JSON.readTree(body);
      } catch (IOException e) {
        throw new AssertionError("not JSON: " + body, e);
      }
    }

    public long version() {
      return json().path("metadata").path("version").asLong();
    }
  }

  /**
   * Creates (or updates) {@code tenant}, then writes {@code count} namespace updates cycling over
   * {@code distinct} names; returns the last write's version.
   */
  public long writeNamespaces(String tenant, int count, int distinct) {
    put("/v1/tenants/" + tenant, tenant(tenant, "namespace writes"));
    long last = 0;
    for (int i = 0; i < count; i++) {
      String ns = "n" + (i % distinct);
      Reply reply =
          put("/v1/tenants/" + tenant + "/namespaces/" + ns, namespace(tenant, ns, "d" + i));
      if (reply.status() != 200 && reply.status() != 201) {
        throw new AssertionError("writing " + ns + ": " + reply.status() + " " + reply.body());
      }
      last = reply.version();
    }
    return last;
  }

  public Reply get(String path) {
    return send(request(path).GET().header("Accept", "application/json"));
  }

  public Reply get(String path, String accept) {
    return send(request(path).GET().header("Accept", accept));
  }

  public Reply put(String path, String body) {
    return put(path, body, "application/json");
  }

  public Reply put(String path, String body, String contentType) {
    return send(
        request(path)
            .PUT(HttpRequest.BodyPublishers.ofString(body))
            .header("Content-Type", contentType));
  }

  public Reply delete(String path) {
    return send(request(path).DELETE());
  }

  public HttpRequest.Builder request(String path) {
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(timeout);
    if (token != null) {
      builder.header("Authorization", "Bearer " + token);
    }
    return builder;
  }

  public Reply send(HttpRequest.Builder request) {
    try {
      HttpResponse<String> response =
          CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
      return new Reply(
          response.statusCode(),
          response.headers().firstValue("Content-Type").orElse(""),
          response.body(),
          response);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * A body-less request whose target is sent exactly as given, over HTTP/1.0 so the body runs to
   * the end of the connection: for targets {@link URI} refuses to build, such as a malformed
   * percent-encoding, which real clients do send. {@link Reply#raw()} is null.
   */
  public Reply sendVerbatim(String method, String target) {
    return sendVerbatim(method, target, "", null);
  }

  /**
   * The same with header lines sent as given ({@code "Name: value\r\n"} each, bytes no client
   * library lets through, such as a NUL) and a JSON body when {@code body} is not null.
   */
  public Reply sendVerbatim(String method, String target, String headerLines, String body) {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout((int) timeout.toMillis());
      byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
      String request =
          method
              + " "
              + target
              + " HTTP/1.0\r\nHost: 127.0.0.1\r\n"
              + (token == null ? "" : "Authorization: Bearer " + token + "\r\n")
              + headerLines
              + (body == null
                  ? ""
                  : "Content-Type: application/json\r\nContent-Length: " + content.length + "\r\n")
              + "\r\n";
      socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
      socket.getOutputStream().write(content);
      String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      int headersEnd = response.indexOf("\r\n\r\n");
      String[] head = response.substring(0, headersEnd).split("\r\n");
      String contentType = "";
      for (String header : head) {
        if (header.regionMatches(true, 0, "Content-Type:", 0, 13)) {
          contentType = header.substring(13).trim();
        }
      }
      return new Reply(
          Integer.parseInt(head[0].split(" ")[1]),
          contentType,
          response.substring(headersEnd + 4),
          null);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  public static String tenant(String name, String description) {
    return "{\"apiVersion\":\"controlplane/v1\",\"kind\":\"Tenant\",\"metadata\":{\"name\":\""
        + name
        + "\"},\"spec\":{\"description\":\""
        + description
        + "\"}}";
  }

  public static String namespace(String tenant, String name, String description) {
    return "{\"apiVersion\":\"controlplane/v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\""
        + name
        + "\",\"tenant\":\""
        + tenant
        + "\"},\"spec\":{\"description\":\""
        + description
        + "\"}}";
  }

  public static String stream(
      String tenant, String namespace, String name, int shards, int replicationFactor) {
    return "{\"apiVersion\":\"controlplane/v1\",\"kind\":\"Stream\",\"metadata\":{\"name\":\""
        + name
        + "\",\"namespace\":\""
        + namespace
        + "\",\"tenant\":\""
        + tenant
        + "\"},\"spec\":{\"shards\":"
        + shards
        + ",\"replication_factor\":"
        + replicationFactor
        + ",\"retention\":{\"time\":\"7d\",\"size\":\"10GB\"}}}";
  }

  /**
   * Repeats {@code call} until it answers {@code status}; a call that throws (node down, connection
   * refused) counts as no answer. Fails with the last status after {@code timeout}.
   */
  public static void awaitStatus(java.util.function.IntSupplier call, int status, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    int last = -1;
    while (System.nanoTime() < deadline) {
      try {
        last = call.getAsInt();
      } catch (RuntimeException e) {
        last = -1;
      }
      if (last == status) {
        return;
      }
      Thread.sleep(200);
    }
    throw new AssertionError("expected status " + status + " within " + timeout + ", last " + last);
  }
}
