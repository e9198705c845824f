package dev.controlplane.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.sun.net.httpserver.HttpServer;
import dev.controlplane.config.NetworkList;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class KeyFetcherTest {

  private static IssuerRecord issuer(String jwksUrl) {
    return new IssuerRecord("https://idp.example", List.of(), null, jwksUrl, null, null, null);
  }

  /**
   * Issuers whose host names a name server never answers for (any tenant may name any host) hold
   * neither the fetch threads nor the time of other issuers' fetches: each fails when the request
   * timeout ends, and a healthy issuer's keys arrive meanwhile.
   */
  @Test
  void hostNamesThatNeverResolveDoNotHoldUpOtherIssuersKeys() throws Exception {
    CountDownLatch nameServer = new CountDownLatch(1);
    KeyFetcher.Resolver resolver =
        host -> {
          if (host.endsWith(".stuck.example")) {
            // As the system's resolver: deaf to interrupts until its own timeout (here, the end).
            boolean interrupted = false;
            while (true) {
              try {
                nameServer.await();
                break;
              } catch (InterruptedException e) {
                interrupted = true;
              }
            }
            if (interrupted) {
              Thread.currentThread().interrupt();
            }
            throw new java.net.UnknownHostException(host);
          }
          return InetAddress.getAllByName(host);
        };
    String keys =
        new JWKSet(new ECKeyGenerator(Curve.P_256).keyID("k1").generate().toPublicJWK()).toString();
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/jwks",
        exchange -> {
          byte[] body = keys.getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    server.start();
    try (KeyFetcher fetcher =
        new KeyFetcher(
            true,
            new AddressPolicy(NetworkList.parse("t", "127.0.0.0/8")),
            resolver,
            IssuerTrust.jdkOnly())) {
      List<CompletableFuture<JWKSet>> stuck = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        stuck.add(fetcher.fetchAsync(issuer("https://idp" + i + ".stuck.example/jwks")));
      }
      // Before lookups had threads of their own, this waited for the name server: forever.
      JWKSet healthy =
          fetcher
              .fetchAsync(issuer("http://127.0.0.1:" + server.getAddress().getPort() + "/jwks"))
              .get(10, TimeUnit.SECONDS);
      assertThat(healthy.getKeyByKeyId("k1")).isNotNull();
      for (CompletableFuture<JWKSet> f : stuck) {
        assertThat(f)
            .failsWithin(KeyFetcher.FETCH_DEADLINE.plusSeconds(2))
            .withThrowableOfType(java.util.concurrent.ExecutionException.class)
            .havingCause()
            .withMessageContaining("host");
      }
    } finally {
      nameServer.countDown();
      server.stop(0);
    }
  }
}
