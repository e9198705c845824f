package dev.controlplane.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.controlplane.config.NetworkList;
import dev.controlplane.it.support.Certificates;
import io.grpc.util.AdvancedTlsX509KeyManager;
import java.io.IOException;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where a key fetch connects, and how it ends: each against real HTTP(S) servers on loopback. */
class IssuerConnectionTest {

  private static final String KEYS;

  static {
    try {
      KEYS =
          new JWKSet(new ECKeyGenerator(Curve.P_256).keyID("k1").generate().toPublicJWK())
              .toString();
    } catch (Exception e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final ExecutorService handlers = Executors.newCachedThreadPool();
  private final List<HttpServer> servers = new java.util.ArrayList<>();

  @AfterEach
  void stop() {
    servers.forEach(s -> s.stop(0));
    handlers.shutdownNow();
  }

  private static IssuerRecord issuer(String jwksUrl) {
    return new IssuerRecord("https://idp.example", List.of(), null, jwksUrl, null, null, null);
  }

  private static KeyFetcher fetcher(String allowed, Map<String, String> names, IssuerTrust tls)
      throws Exception {
    KeyFetcher.Resolver resolver =
        host -> {
          String address = names.get(host);
          if (address == null) {
            throw new java.net.UnknownHostException(host);
          }
          return new InetAddress[] {InetAddress.getByName(address)};
        };
    return new KeyFetcher(true, new AddressPolicy(NetworkList.parse("t", allowed)), resolver, tls);
  }

  private HttpServer serve(HttpServer server, HttpHandler handler) {
    server.createContext("/", handler);
    server.setExecutor(handlers);
    server.start();
    servers.add(server);
    return server;
  }

  /** An https key server on 127.0.0.1 serving {@code cert}, answering the key set. */
  private HttpServer httpsServer(Certificates.Pair cert) throws Exception {
    AdvancedTlsX509KeyManager identity = new AdvancedTlsX509KeyManager();
    identity.updateIdentityCredentials(cert.cert().toFile(), cert.key().toFile());
    SSLContext serverTls = SSLContext.getInstance("TLS");
    serverTls.init(new KeyManager[] {identity}, null, null);
    HttpsServer server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(serverTls));
    return serve(server, exchange -> answer(exchange, 200, KEYS));
  }

  private static void answer(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }

  /**
   * The check and the connection use one lookup. Here the name {@code localhost} is looked up for
   * the check as 127.0.0.2, which is allowed, while the system would connect it to 127.0.0.1, which
   * is not, where another server listens on the same port: as a name whose answers change between
   * two lookups (DNS rebinding) would. The keys come from 127.0.0.2, and 127.0.0.1 sees no request.
   * With the JDK's HttpClient, which looked the name up again, the request went to 127.0.0.1.
   */
  @Test
  void aRequestConnectsToTheAddressThatWasCheckedNotToAnotherLookupOfTheName() throws Exception {
    AtomicInteger refusedHostRequests = new AtomicInteger();
    int port = 0;
    for (int attempt = 0; port == 0; attempt++) {
      HttpServer allowed = HttpServer.create(new InetSocketAddress("127.0.0.2", 0), 0);
      try {
        HttpServer refused =
            HttpServer.create(
                new InetSocketAddress("127.0.0.1", allowed.getAddress().getPort()), 0);
        serve(allowed, exchange -> answer(exchange, 200, KEYS));
        serve(
            refused,
            exchange -> {
              refusedHostRequests.incrementAndGet();
              answer(exchange, 200, KEYS);
            });
        port = allowed.getAddress().getPort();
      } catch (BindException taken) {
        allowed.stop(0);
        assertThat(attempt).as("a port free on 127.0.0.1 and 127.0.0.2").isLessThan(20);
      }
    }
    try (KeyFetcher fetcher =
        fetcher("127.0.0.2/32", Map.of("localhost", "127.0.0.2"), IssuerTrust.jdkOnly())) {
      JWKSet keys = fetcher.fetchKeys(issuer("http://localhost:" + port + "/jwks"));
      assertThat(keys.getKeyByKeyId("k1")).isNotNull();
    }
    assertThat(refusedHostRequests).as("requests that reached 127.0.0.1").hasValue(0);
  }

  /**
   * Over https the connection goes to the checked address and the certificate is still verified
   * against the URL's host name: a certificate for {@code idp.tls.test} is accepted for that name
   * and refused for another name that resolves to the same server. Its private CA is trusted
   * because SERVICE_CONTROLPLANE_OIDC_CA_FILE names it; with the JDK's CAs alone it is refused.
   */
  @Test
  void httpsVerifiesTheHostNameOfTheUrlWhileConnectingToTheCheckedAddress(@TempDir Path dir)
      throws Exception {
    Certificates certificates = new Certificates(dir);
    Certificates.Pair ca = certificates.ca("issuer-ca");
    Certificates.Pair cert = certificates.serverForHost(ca, "idp.tls.test");
    int port = httpsServer(cert).getAddress().getPort();
    Map<String, String> names = Map.of("idp.tls.test", "127.0.0.1", "other.tls.test", "127.0.0.1");
    try (KeyFetcher fetcher = fetcher("127.0.0.1/32", names, IssuerTrust.withCaFile(ca.cert()))) {
      assertThat(
              fetcher
                  .fetchKeys(issuer("https://idp.tls.test:" + port + "/jwks"))
                  .getKeyByKeyId("k1"))
          .isNotNull();
      assertThatThrownBy(
              () -> fetcher.fetchKeys(issuer("https://other.tls.test:" + port + "/jwks")))
          .isInstanceOf(KeyFetcher.KeyFetchFailed.class)
          .hasMessageContaining("TLS handshake failed");
    }
    try (KeyFetcher jdkCasOnly = fetcher("127.0.0.1/32", names, IssuerTrust.jdkOnly())) {
      assertThatThrownBy(
              () -> jdkCasOnly.fetchKeys(issuer("https://idp.tls.test:" + port + "/jwks")))
          .hasMessageContaining("TLS handshake failed");
    }
  }

  /** The CA file adds to the JDK's CAs: an IdP with a public certificate still verifies. */
  @Test
  void theCaFileIsTrustedBesidesEveryCaOfTheJdk(@TempDir Path dir) throws Exception {
    Path file = new Certificates(dir).ca("private").cert();
    X509Certificate privateCa = dev.controlplane.tls.PemFiles.certificates(file)[0];
    List<X509Certificate> jdk = IssuerTrust.jdkCas();
    assertThat(jdk).isNotEmpty();
    List<X509Certificate> accepted = IssuerTrust.withCaFile(file).acceptedIssuers();
    assertThat(accepted).hasSize(jdk.size() + 1).contains(privateCa).containsAll(jdk);
    assertThat(IssuerTrust.jdkOnly().acceptedIssuers()).doesNotContain(privateCa);
  }

  /**
   * The CA file is compared with what is in use before each fetch: an IdP whose certificate moves
   * to another private CA is trusted once the file names that CA, without a restart; a file that
   * becomes unusable keeps the CAs in use, and is applied once it is fixed.
   */
  @Test
  void aReplacedCaFileIsUsedByTheNextFetchAndAnUnusableOneKeepsTheCasInUse(@TempDir Path dir)
      throws Exception {
    Certificates certificates = new Certificates(dir);
    Certificates.Pair oldCa = certificates.ca("old-ca");
    Certificates.Pair newCa = certificates.ca("new-ca");
    Certificates.Pair cert = certificates.serverForHost(newCa, "idp.tls.test");
    int port = httpsServer(cert).getAddress().getPort();
    Path file = dir.resolve("oidc-ca.pem");
    java.nio.file.Files.copy(oldCa.cert(), file);
    IssuerRecord issuer = issuer("https://idp.tls.test:" + port + "/jwks");
    Map<String, String> names = Map.of("idp.tls.test", "127.0.0.1");
    try (KeyFetcher fetcher = fetcher("127.0.0.1/32", names, IssuerTrust.withCaFile(file))) {
      assertThatThrownBy(() -> fetcher.fetchKeys(issuer))
          .as("the certificate's CA is not in the file yet")
          .hasMessageContaining("TLS handshake failed");

      java.nio.file.Files.copy(
          newCa.cert(), file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      assertThat(fetcher.fetchKeys(issuer).getKeyByKeyId("k1")).isNotNull();

      java.nio.file.Files.writeString(file, "-----BEGIN CERTIFICATE-----\nnot base64\n");
      assertThat(fetcher.fetchKeys(issuer).getKeyByKeyId("k1"))
          .as("a broken file keeps the CA in use")
          .isNotNull();
      java.nio.file.Files.delete(file);
      assertThat(fetcher.fetchKeys(issuer).getKeyByKeyId("k1"))
          .as("so does a missing one")
          .isNotNull();

      java.nio.file.Files.copy(oldCa.cert(), file);
      assertThatThrownBy(() -> fetcher.fetchKeys(issuer))
          .as("the fixed file is applied: only the old CA is trusted again")
          .hasMessageContaining("TLS handshake failed");
    }
  }

  /** An unusable file at start names the setting. */
  @Test
  void anUnusableCaFileAtStartNamesTheSetting(@TempDir Path dir) throws Exception {
    Path file = java.nio.file.Files.writeString(dir.resolve("ca.pem"), "no certificate here");
    assertThatThrownBy(() -> IssuerTrust.withCaFile(file))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("SERVICE_CONTROLPLANE_OIDC_CA_FILE: ");
    assertThatThrownBy(() -> IssuerTrust.withCaFile(dir.resolve("absent.pem")))
        .hasMessageContaining("absent.pem");
  }

  /** An IPv6 address literal in the URL is reached at that address, as any other host. */
  @Test
  void anIpv6LiteralUrlIsFetchedFromItsAddress() throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress("::1", 0), 0);
    List<String> hosts = new java.util.concurrent.CopyOnWriteArrayList<>();
    serve(
        server,
        exchange -> {
          hosts.add(exchange.getRequestHeaders().getFirst("Host"));
          answer(exchange, 200, KEYS);
        });
    try (KeyFetcher fetcher =
        new KeyFetcher(
            true,
            new AddressPolicy(NetworkList.parse("t", "::1/128")),
            InetAddress::getAllByName,
            IssuerTrust.jdkOnly())) {
      String url = "http://[::1]:" + server.getAddress().getPort() + "/jwks";
      assertThat(fetcher.fetchKeys(issuer(url)).getKeyByKeyId("k1")).isNotNull();
    }
    assertThat(hosts).containsExactly("[::1]:" + server.getAddress().getPort());
  }

  /**
   * Each fetch is told by how it ended (the metric {@code controlplane_issuer_key_fetches_total}):
   * keys, an answer that is no key set, an address the node may not reach, a name that does not
   * resolve, and a port nothing listens on.
   */
  @Test
  void eachFetchIsCountedByHowItEnded() throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    serve(
        server,
        exchange -> {
          if (exchange.getRequestURI().getPath().equals("/jwks")) {
            answer(exchange, 200, KEYS);
          } else {
            answer(exchange, 404, "{}");
          }
        });
    int port = server.getAddress().getPort();
    int closedPort;
    try (java.net.ServerSocket probe =
        new java.net.ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      closedPort = probe.getLocalPort();
    }
    Map<String, String> names =
        Map.of("idp.test", "127.0.0.1", "inside.test", "127.0.0.2", "closed.test", "127.0.0.1");
    List<KeyFetcher.KeyFetchFailed.Outcome> outcomes =
        new java.util.concurrent.CopyOnWriteArrayList<>();
    try (KeyFetcher fetcher = fetcher("127.0.0.1/32", names, IssuerTrust.jdkOnly())) {
      fetcher.onOutcome(outcomes::add);
      String[] urls = {
        "http://idp.test:" + port + "/jwks",
        "http://idp.test:" + port + "/gone",
        "http://inside.test:" + port + "/jwks",
        "http://nowhere.test:" + port + "/jwks",
        "http://closed.test:" + closedPort + "/jwks",
      };
      for (String url : urls) {
        try {
          fetcher.fetchAsync(issuer(url)).get(10, java.util.concurrent.TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException expected) {
          // counted all the same
        }
      }
    }
    assertThat(outcomes)
        .extracting(KeyFetcher.KeyFetchFailed.Outcome::label)
        .containsExactly("fetched", "invalid", "refused", "unreachable", "unreachable");
  }

  /** A body that trickles in is cut off at the request timeout, and its connection closed. */
  @Test
  void aBodyThatTricklesInIsCutOffAtTheRequestTimeout() throws Exception {
    AtomicInteger bytesWritten = new AtomicInteger();
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    serve(
        server,
        exchange -> {
          exchange.sendResponseHeaders(200, 0);
          OutputStream body = exchange.getResponseBody();
          try {
            while (true) {
              body.write('{');
              body.flush();
              bytesWritten.incrementAndGet();
              Thread.sleep(200);
            }
          } catch (InterruptedException | IOException closed) {
            exchange.close();
          }
        });
    try (KeyFetcher fetcher =
        fetcher("127.0.0.1/32", Map.of("slow.test", "127.0.0.1"), IssuerTrust.jdkOnly())) {
      long start = System.nanoTime();
      assertThatThrownBy(
              () ->
                  fetcher.fetchKeys(
                      issuer("http://slow.test:" + server.getAddress().getPort() + "/jwks")))
          .isInstanceOf(KeyFetcher.KeyFetchFailed.class)
          .hasMessageContaining("did not answer in time");
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      assertThat(took).isLessThan(KeyFetcher.REQUEST_TIMEOUT.plusSeconds(1));
      assertThat(bytesWritten.get()).isGreaterThan(2);
    }
  }

  /** A body over 64 KiB is refused whether or not its length is announced. */
  @Test
  void aBodyOverTheLimitIsRefusedWithOrWithoutAContentLength() throws Exception {
    String big = " ".repeat(KeyFetcher.MAX_BYTES) + KEYS;
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    serve(
        server,
        exchange -> {
          if (exchange.getRequestURI().getPath().equals("/announced")) {
            answer(exchange, 200, big);
            return;
          }
          exchange.sendResponseHeaders(200, 0);
          exchange.getResponseBody().write(big.getBytes(StandardCharsets.UTF_8));
          exchange.close();
        });
    String base = "http://big.test:" + server.getAddress().getPort();
    try (KeyFetcher fetcher =
        fetcher("127.0.0.1/32", Map.of("big.test", "127.0.0.1"), IssuerTrust.jdkOnly())) {
      for (String path : List.of("/announced", "/chunked")) {
        assertThatThrownBy(() -> fetcher.fetchKeys(issuer(base + path)))
            .as(path)
            .isInstanceOf(KeyFetcher.KeyFetchFailed.class)
            .hasMessageContaining("larger than " + KeyFetcher.MAX_BYTES + " bytes");
      }
    }
  }

  /**
   * A redirect on the same host is followed, its target checked again; one to another host is
   * refused, and so is a status other than 200.
   */
  @Test
  void redirectsStayOnTheIssuersHostAndOnlyA200IsAKeySet() throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    int[] port = new int[1];
    serve(
        server,
        exchange -> {
          switch (exchange.getRequestURI().getPath()) {
            case "/moved" -> {
              exchange.getResponseHeaders().add("Location", "/jwks");
              answer(exchange, 302, "");
            }
            case "/elsewhere" -> {
              exchange
                  .getResponseHeaders()
                  .add("Location", "http://other.test:" + port[0] + "/jwks");
              answer(exchange, 302, "");
            }
            case "/jwks" -> answer(exchange, 200, KEYS);
            default -> answer(exchange, 404, "{}");
          }
        });
    port[0] = server.getAddress().getPort();
    String base = "http://idp.test:" + port[0];
    Map<String, String> names = Map.of("idp.test", "127.0.0.1", "other.test", "127.0.0.1");
    try (KeyFetcher fetcher = fetcher("127.0.0.1/32", names, IssuerTrust.jdkOnly())) {
      assertThat(fetcher.fetchKeys(issuer(base + "/moved")).getKeyByKeyId("k1")).isNotNull();
      assertThatThrownBy(() -> fetcher.fetchKeys(issuer(base + "/elsewhere")))
          .hasMessageContaining("redirected to another host");
      assertThatThrownBy(() -> fetcher.fetchKeys(issuer(base + "/gone")))
          .hasMessageContaining("answered 404");
    }
  }
}
