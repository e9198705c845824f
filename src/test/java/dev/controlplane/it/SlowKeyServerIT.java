package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import dev.controlplane.it.support.Auth;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.OidcProvider;
import dev.controlplane.it.support.SharedServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 14 item 7: a tenant administrator pointed an issuer at a key server that sends its headers
 * and then one byte every 2 s. With 200 throwaway tokens in flight for that tenant, another
 * tenant's exchange, its JWKS and liveness used to take about 10 s. They must not notice.
 */
class SlowKeyServerIT {

  private static final int FLOOD = 200;
  private static final Duration BOUND = Duration.ofSeconds(2);

  @BeforeAll
  static void server() throws Exception {
    SharedServer.ensureStarted();
  }

  /** Answers every request with headers, then trickles one byte of the body every 2 s. */
  private static final class TricklingServer implements AutoCloseable {
    final ServerSocket socket;
    final AtomicInteger connections = new AtomicInteger();
    final ExecutorService threads = Executors.newCachedThreadPool();

    TricklingServer() throws IOException {
      socket = new ServerSocket();
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
      threads.submit(this::accept);
    }

    int port() {
      return socket.getLocalPort();
    }

    private Void accept() {
      while (!socket.isClosed()) {
        try {
          Socket client = socket.accept();
          connections.incrementAndGet();
          threads.submit(() -> trickle(client));
        } catch (IOException closed) {
          return null;
        }
      }
      return null;
    }

    private void trickle(Socket client) {
      try (client) {
        InputStream in = client.getInputStream();
        int matched = 0;
        while (matched < 4) {
          int b = in.read();
          if (b < 0) {
            return;
          }
          matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        OutputStream out = client.getOutputStream();
        out.write(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        for (int i = 0; i < 100 && !socket.isClosed(); i++) {
          Thread.sleep(2000);
          out.write(' ');
          out.flush();
        }
      } catch (IOException | InterruptedException gone) {
        // The control plane hung up, or the test ended.
      }
    }

    @Override
    public void close() throws IOException {
      socket.close();
      threads.shutdownNow();
    }
  }

  @Test
  void aHostileKeyServerOfOneTenantLeavesEveryOtherTenantsLatencyUnchanged() throws Exception {
    Auth.bootstrap("calm", "calm-idp", null, "alice");
    String calmToken = OidcProvider.token("calm-idp", "alice", Map.of());
    Http anonymous = new Http(SharedServer.httpPort(), null);
    Map<String, Supplier<Integer>> probes =
        Map.of(
            "another tenant's exchange", () -> Auth.exchange("calm", calmToken, "{}").status(),
            "another tenant's JWKS",
                () -> anonymous.get("/v1/tenants/calm/.well-known/jwks.json").status(),
            "/health/live", () -> anonymous.get("/health/live").status());
    Map<String, Duration> idle = slowest(probes, 5);

    try (TricklingServer hostile = new TricklingServer()) {
      String base = "http://127.0.0.1:" + hostile.port();
      ObjectNode issuer =
          Http.JSON
              .createObjectNode()
              .put("issuer", base + "/hostile")
              .put("jwks_url", base + "/jwks");
      issuer.putArray("audiences").add(OidcProvider.AUDIENCE);
      var created =
          Auth.bootstrap(
              "hostile-keys",
              List.of(issuer),
              List.of(Auth.principal(base + "/hostile", "mallory")),
              SharedServer.BOOTSTRAP_TOKEN);
      assertThat(created.status()).as(created.body()).isEqualTo(201);

      ExecutorService clientThreads = Executors.newFixedThreadPool(8);
      HttpClient flooder =
          HttpClient.newBuilder()
              .version(HttpClient.Version.HTTP_1_1)
              .executor(clientThreads)
              .build();
      long start = System.nanoTime();
      List<CompletableFuture<HttpResponse<String>>> flood = new ArrayList<>();
      for (int i = 0; i < FLOOD; i++) {
        flood.add(
            flooder.sendAsync(
                throwaway(base + "/hostile", "kid-" + i), HttpResponse.BodyHandlers.ofString()));
      }
      Map<String, Duration> loaded = slowest(probes, 15);
      System.out.printf(
          "slowest answers, idle: %s; with %d hostile tokens in flight: %s%n", idle, FLOOD, loaded);
      for (var probe : loaded.entrySet()) {
        assertThat(probe.getValue())
            .as(
                probe.getKey()
                    + " while "
                    + FLOOD
                    + " tokens of a hostile issuer were in flight (idle: "
                    + idle.get(probe.getKey())
                    + ")")
            .isLessThan(BOUND);
      }
      for (var reply : flood) {
        var response = reply.get(30, TimeUnit.SECONDS);
        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.body()).contains("the token is not valid for this tenant");
      }
      Duration floodTook = Duration.ofNanos(System.nanoTime() - start);
      clientThreads.shutdownNow();
      System.out.printf("%d hostile requests answered in %s%n", FLOOD, floodTook);
      assertThat(floodTook)
          .as("every hostile request is answered")
          .isLessThan(Duration.ofSeconds(15));
      assertThat(hostile.connections.get())
          .as("key fetches: one, then the refresh interval holds the rest back")
          .isEqualTo(1);
    }
  }

  private static HttpRequest throwaway(String issuer, String kid) {
    try {
      ECKey key = new ECKeyGenerator(Curve.P_256).keyID(kid).generate();
      String token =
          OidcProvider.sign(
              key,
              new JWSHeader.Builder(JWSAlgorithm.ES256).keyID(kid).type(JOSEObjectType.JWT),
              OidcProvider.claims("calm-idp", "mallory").issuer(issuer).build());
      return HttpRequest.newBuilder(
              URI.create(
                  "http://127.0.0.1:"
                      + SharedServer.httpPort()
                      + "/v1/tenants/hostile-keys/token/exchange"))
          .timeout(Duration.ofSeconds(30))
          .header("Authorization", "Bearer " + token)
          .header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString("{}"))
          .build();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** Each probe's slowest answer over {@code rounds} rounds, 200 ms apart; each must be 200. */
  private static Map<String, Duration> slowest(Map<String, Supplier<Integer>> probes, int rounds)
      throws InterruptedException {
    Map<String, Duration> out = new java.util.TreeMap<>();
    for (int round = 0; round < rounds; round++) {
      for (var probe : probes.entrySet()) {
        long start = System.nanoTime();
        int status = probe.getValue().get();
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertThat(status).as(probe.getKey()).isEqualTo(200);
        out.merge(probe.getKey(), took, (a, b) -> a.compareTo(b) >= 0 ? a : b);
      }
      Thread.sleep(200);
    }
    return out;
  }
}
