package dev.controlplane.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import dev.controlplane.audit.Actor;
import dev.controlplane.audit.CurrentActor;
import dev.controlplane.auth.IssuerRecord;
import dev.controlplane.bootstrap.BootstrapService;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.error.Failures;
import dev.controlplane.tls.TransportSecurity;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * The bootstrap listener: its own socket ({@code SERVICE_BOOTSTRAP_BIND_ADDR}), created only when
 * bootstrap is enabled, serving only {@code POST /internal/bootstrap/tenants/{t}/initialize}. The
 * main HTTP port never serves it. The secret header is compared in constant time.
 *
 * <p>Slow clients: the JDK server reads a request on a worker thread, so {@link #WORKERS} threads
 * serve it and a request that has not been read and answered within {@link #MAX_REQUEST_SECONDS}
 * (or a response not taken within as long) loses its connection. A few clients trickling bytes can
 * therefore neither hold every worker nor hold one for long.
 */
public final class BootstrapListener {

  private static final Logger LOG = Logger.getLogger(BootstrapListener.class.getName());
  private static final Pattern PATH =
      Pattern.compile("^/internal/bootstrap/tenants/([^/]+)/initialize$");
  private static final int MAX_BODY = 1024 * 1024;
  static final int WORKERS = 16;
  static final int MAX_REQUEST_SECONDS = 10;

  static {
    // The JDK server reads its time limits once, from system properties, when it is first used;
    // nothing else in this process uses it. An operator's own -D value wins.
    setIfAbsent("sun.net.httpserver.maxReqTime", Integer.toString(MAX_REQUEST_SECONDS));
    setIfAbsent("sun.net.httpserver.maxRspTime", Integer.toString(MAX_REQUEST_SECONDS));
    setIfAbsent("sun.net.httpserver.timerMillis", "250");
  }

  private static void setIfAbsent(String property, String value) {
    if (System.getProperty(property) == null) {
      System.setProperty(property, value);
    }
  }

  private static final java.util.Set<String> BODY_FIELDS =
      java.util.Set.of("display_name", "idp_issuers", "initial_admin_principals");

  private final HttpServer server;
  private final ExecutorService executor;
  private final byte[] secret;
  private final BootstrapService service;

  /**
   * Binds at once (on the calling thread); requests run on {@code threads} (managed: they use JPA).
   */
  public BootstrapListener(
      InetSocketAddress bindAddr,
      String token,
      BootstrapService service,
      ThreadFactory threads,
      Optional<SSLContext> tls) {
    this.secret = token.getBytes(StandardCharsets.UTF_8);
    this.service = service;
    this.executor = Executors.newFixedThreadPool(WORKERS, threads);
    try {
      server =
          tls.isPresent()
              ? https(resolved(bindAddr), tls.get())
              : HttpServer.create(resolved(bindAddr), 64);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot listen for bootstrap on " + bindAddr.getHostString() + ":" + bindAddr.getPort(),
          e);
    }
    server.createContext("/", this::handle);
    server.setExecutor(executor);
  }

  private static InetSocketAddress resolved(InetSocketAddress address) throws IOException {
    InetSocketAddress resolved = new InetSocketAddress(address.getHostString(), address.getPort());
    if (resolved.isUnresolved()) {
      throw new java.net.UnknownHostException("unknown host " + address.getHostString());
    }
    return resolved;
  }

  /** The node's TLS identity (reloaded with it), TLS 1.3 preferred, 1.2 accepted. */
  private static HttpServer https(InetSocketAddress address, SSLContext context)
      throws IOException {
    HttpsServer https = HttpsServer.create(address, 64);
    https.setHttpsConfigurator(
        new HttpsConfigurator(context) {
          @Override
          public void configure(HttpsParameters params) {
            SSLParameters ssl = context.getDefaultSSLParameters();
            ssl.setProtocols(TransportSecurity.PROTOCOLS);
            params.setSSLParameters(ssl);
          }
        });
    return https;
  }

  public void start() {
    server.start();
    LOG.warning(
        "bootstrap listener enabled on "
            + server.getAddress()
            + "; disable it (SERVICE_BOOTSTRAP_ENABLED=false) after setup");
  }

  public void stop() {
    server.stop(0);
    executor.shutdownNow();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      Matcher m = PATH.matcher(URI.create(exchange.getRequestURI().getRawPath()).getPath());
      if (!m.matches()) {
        send(exchange, 404, problem(404, "not_found", "no such resource"));
        return;
      }
      String presented = exchange.getRequestHeaders().getFirst("X-Service-Bootstrap-Token");
      if (presented == null
          || !MessageDigest.isEqual(secret, presented.getBytes(StandardCharsets.UTF_8))) {
        exchange.getResponseHeaders().add("WWW-Authenticate", "Bearer error=\"invalid_token\"");
        send(
            exchange,
            401,
            problem(401, "invalid_token", "missing or wrong X-Service-Bootstrap-Token"));
        return;
      }
      if (!"POST".equals(exchange.getRequestMethod())) {
        exchange.getResponseHeaders().add("Allow", "POST");
        send(exchange, 405, problem(405, "method_not_allowed", "only POST"));
        return;
      }
      initialize(exchange, m.group(1));
    } catch (RuntimeException e) {
      LOG.log(Level.SEVERE, "bootstrap request failed", e);
    }
  }

  /** The holder of the bootstrap secret, from the connection's remote address (audit log). */
  private static Actor bootstrapActor(HttpExchange exchange) {
    InetSocketAddress remote = exchange.getRemoteAddress();
    return Actor.anonymous(
            remote == null || remote.getAddress() == null
                ? null
                : remote.getAddress().getHostAddress(),
            exchange.getRequestHeaders().getFirst("User-Agent"))
        .as(Actor.BOOTSTRAP, Actor.BOOTSTRAP);
  }

  private void initialize(HttpExchange exchange, String tenant) throws IOException {
    if (!JsonBodies.isJson(exchange.getRequestHeaders().getFirst("Content-Type"))) {
      send(
          exchange,
          415,
          problem(
              415, "unsupported_media_type", "unsupported content type; send application/json"));
      return;
    }
    try {
      JsonNode body = JsonBodies.parse(read(exchange.getRequestBody()), false);
      JsonBodies.onlyFields(body, BODY_FIELDS);
      List<IssuerRecord> issuers = new ArrayList<>();
      JsonNode list = body.path("idp_issuers");
      if (!list.isMissingNode() && !list.isArray()) {
        throw ControlPlaneException.validation("idp_issuers", "must be an array");
      }
      for (int i = 0; i < list.size(); i++) {
        issuers.add(JsonBodies.issuer(list.get(i), "idp_issuers[" + i + "]."));
      }
      var request =
          new BootstrapService.Request(
              JsonBodies.text(body, "display_name"),
              issuers,
              JsonBodies.texts(body, "initial_admin_principals"));
      BootstrapService.Result result;
      try (var bound = CurrentActor.bind(bootstrapActor(exchange))) {
        result = service.initialize(tenant, request);
      }
      ObjectNode reply = JsonBodies.JSON.createObjectNode();
      reply.put("tenant_id", result.tenant());
      reply.put("display_name", result.displayName());
      var out = reply.putArray("idp_issuers");
      result.issuers().forEach(i -> out.add(JsonBodies.toJson(i)));
      var admins = reply.putArray("admin_principals");
      result.adminPrincipals().forEach(admins::add);
      LOG.info("bootstrap initialized tenant " + tenant);
      send(exchange, 201, reply.toString(), "application/json");
    } catch (RuntimeException e) {
      var known = Failures.classify(e);
      if (known.isEmpty()) {
        LOG.log(Level.SEVERE, "bootstrap of tenant " + tenant + " failed", e);
        send(
            exchange,
            500,
            problem(500, "internal_error", "the server failed to process the request"));
        return;
      }
      var problem = Problems.of(known.get());
      // The main port's Location would name the leader's API port, not this listener's: the
      // body names the leader; Retry-After says when to try again.
      for (String header : List.of("Retry-After", "WWW-Authenticate")) {
        if (problem.getHeaderString(header) != null) {
          exchange.getResponseHeaders().set(header, problem.getHeaderString(header));
        }
      }
      send(exchange, problem.getStatus(), problem.getEntity().toString());
    }
  }

  private static byte[] read(InputStream in) throws IOException {
    byte[] bytes = in.readNBytes(MAX_BODY + 1);
    if (bytes.length > MAX_BODY) {
      throw new ControlPlaneException(
          ErrorCode.PAYLOAD_TOO_LARGE, "the body is larger than " + MAX_BODY + " bytes");
    }
    return bytes;
  }

  private static String problem(int status, String code, String detail) {
    return Problems.of(status, code, detail).getEntity().toString();
  }

  private static void send(HttpExchange exchange, int status, String body) throws IOException {
    send(exchange, status, body, Problems.MEDIA_TYPE);
  }

  private static void send(HttpExchange exchange, int status, String body, String type)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", type);
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
  }
}
