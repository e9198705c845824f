package dev.controlplane.it.support;

import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A key server of the test's own on 127.0.0.1: serves the public parts of the given keys at {@code
 * /jwks} and counts the requests, for issuers whose keys a test chooses.
 */
public final class KeyServer implements AutoCloseable {

  private final HttpServer server;
  private final AtomicInteger fetches = new AtomicInteger();

  public KeyServer(List<? extends JWK> keys) throws IOException {
    byte[] body =
        new JWKSet(keys.stream().map(JWK::toPublicJWK).toList())
            .toString()
            .getBytes(StandardCharsets.UTF_8);
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
    server.createContext(
        "/jwks",
        exchange -> {
          fetches.incrementAndGet();
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    server.start();
  }

  /** {@code http://127.0.0.1:<port>}. */
  public String base() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  public String jwksUrl() {
    return base() + "/jwks";
  }

  public int fetches() {
    return fetches.get();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
