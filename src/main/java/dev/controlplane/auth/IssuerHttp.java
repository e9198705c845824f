package dev.controlplane.auth;

import dev.controlplane.auth.KeyFetcher.KeyFetchFailed;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import org.apache.hc.client5.http.ClientProtocolException;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.util.Timeout;

/**
 * One GET to an issuer's key server, sent to an address the caller has already resolved and
 * checked: the connection goes to that address and no other (the client is given no resolver of its
 * own), while TLS verifies the certificate against the URL's host name. Checking one lookup and
 * connecting after another would let a host name answer an allowed address to the check and a
 * refused one to the connection (DNS rebinding).
 *
 * <p>Each request is cut off when its time is up, wherever it is (connecting, waiting for headers,
 * or reading a body that trickles in), and its connection is closed, never reused: a body is never
 * drained to keep one open.
 */
final class IssuerHttp implements AutoCloseable {

  /** A key server's answer: its status, its {@code Location}, and the body of a 200. */
  record Answer(int status, Optional<String> location, byte[] body) {}

  /** Every host is resolved and checked before a request; the client must never look one up. */
  private static final DnsResolver NO_LOOKUPS =
      new DnsResolver() {
        @Override
        public InetAddress[] resolve(String host) throws UnknownHostException {
          throw new UnknownHostException(host + " was not resolved and checked before the request");
        }

        @Override
        public String resolveCanonicalHostname(String host) throws UnknownHostException {
          throw new UnknownHostException(host);
        }
      };

  private final int maxBytes;
  private final CloseableHttpClient client;
  private final ScheduledExecutorService cutOffs =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "issuer-key-fetch-deadline");
            t.setDaemon(true);
            return t;
          });

  IssuerHttp(SSLContext tls, int maxBytes, int connections, Duration connectTimeout) {
    this.maxBytes = maxBytes;
    this.client =
        HttpClients.custom()
            .setConnectionManager(
                PoolingHttpClientConnectionManagerBuilder.create()
                    .setDnsResolver(NO_LOOKUPS)
                    .setTlsSocketStrategy(new DefaultClientTlsStrategy(tls))
                    .setMaxConnTotal(connections)
                    .setMaxConnPerRoute(connections)
                    .setDefaultConnectionConfig(
                        ConnectionConfig.custom()
                            .setConnectTimeout(Timeout.of(connectTimeout))
                            .setSocketTimeout(Timeout.of(connectTimeout))
                            .build())
                    .build())
            .setConnectionReuseStrategy((request, response, context) -> false)
            .disableRedirectHandling()
            .disableAutomaticRetries()
            .disableCookieManagement()
            .disableAuthCaching()
            .disableContentCompression()
            .build();
  }

  /** GETs {@code uri} from {@code address}, answered in full within {@code timeout}. */
  Answer get(URI uri, InetAddress address, Duration timeout) {
    HttpGet request = new HttpGet(uri);
    request.setHeader("Accept", "application/json");
    request.setConfig(
        RequestConfig.custom()
            .setConnectionRequestTimeout(Timeout.of(timeout))
            .setResponseTimeout(Timeout.of(timeout))
            .build());
    HttpHost target = new HttpHost(uri.getScheme(), address, uri.getHost(), uri.getPort());
    AtomicBoolean late = new AtomicBoolean();
    ScheduledFuture<?> cutOff =
        cutOffs.schedule(
            () -> {
              late.set(true);
              request.cancel();
            },
            timeout.toMillis(),
            TimeUnit.MILLISECONDS);
    ClassicHttpResponse response = null;
    try {
      response = client.executeOpen(target, request, null);
      int status = response.getCode();
      Optional<String> location =
          Optional.ofNullable(response.getFirstHeader("Location")).map(Header::getValue);
      byte[] body = status == 200 ? read(response.getEntity()) : new byte[0];
      return new Answer(status, location, body);
    } catch (IOException e) {
      throw late.get()
          ? new KeyFetchFailed(KeyFetchFailed.Outcome.TIMEOUT, "the issuer did not answer in time")
          : failure(e);
    } finally {
      cutOff.cancel(false);
      // Closes the connection at once; closing the response alone would read the rest of a body.
      request.cancel();
      if (response != null) {
        try {
          response.close();
        } catch (IOException ignored) {
          // the connection is gone already
        }
      }
    }
  }

  private byte[] read(HttpEntity entity) throws IOException {
    if (entity == null) {
      return new byte[0];
    }
    if (entity.getContentLength() > maxBytes) {
      throw tooLarge();
    }
    try (InputStream in = entity.getContent()) {
      byte[] bytes = in.readNBytes(maxBytes + 1);
      if (bytes.length > maxBytes) {
        throw tooLarge();
      }
      return bytes;
    }
  }

  private KeyFetchFailed tooLarge() {
    return new KeyFetchFailed(
        KeyFetchFailed.Outcome.INVALID,
        "the issuer's response is larger than " + maxBytes + " bytes");
  }

  private static KeyFetchFailed failure(IOException cause) {
    if (cause instanceof SocketTimeoutException
        || cause instanceof org.apache.hc.client5.http.ConnectTimeoutException) {
      return new KeyFetchFailed(
          KeyFetchFailed.Outcome.TIMEOUT, "the issuer did not answer in time");
    }
    if (cause instanceof SSLException) {
      return new KeyFetchFailed(
          KeyFetchFailed.Outcome.TLS,
          "the issuer's TLS handshake failed (" + cause.getMessage() + ")");
    }
    if (cause instanceof ClientProtocolException) {
      return new KeyFetchFailed(
          KeyFetchFailed.Outcome.INVALID, "the issuer's response could not be read");
    }
    return new KeyFetchFailed(
        KeyFetchFailed.Outcome.UNREACHABLE, "the issuer could not be reached");
  }

  @Override
  public void close() {
    cutOffs.shutdownNow();
    try {
      client.close();
    } catch (IOException ignored) {
      // nothing is left to release
    }
  }
}
