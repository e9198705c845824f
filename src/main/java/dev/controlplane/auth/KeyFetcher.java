package dev.controlplane.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.jwk.JWKSet;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Fetches an issuer's discovery document and key set, and nothing else: https only (unless http is
 * allowed for tests), never to link-local addresses, 2 s timeouts, 64 KiB at most, redirects only
 * to the same host. The discovery document's {@code issuer} must be the configured issuer.
 */
public final class KeyFetcher {

  static final int MAX_BYTES = 64 * 1024;
  private static final Duration TIMEOUT = Duration.ofSeconds(2);
  private static final int MAX_REDIRECTS = 3;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final boolean allowHttp;
  private final HttpClient client;
  private final AtomicLong fetches = new AtomicLong();

  public KeyFetcher(boolean allowHttp) {
    this.allowHttp = allowHttp;
    this.client =
        HttpClient.newBuilder()
            .connectTimeout(TIMEOUT)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
  }

  /** The issuer's current key set, through {@code jwks_url} or the discovery document. */
  public JWKSet fetchKeys(IssuerRecord issuer) {
    String jwksUrl = issuer.jwksUrl();
    if (jwksUrl == null) {
      JsonNode discovery = json(get(issuer.discoveryUrl()), "discovery document");
      if (!issuer.issuer().equals(discovery.path("issuer").asText(null))) {
        throw new KeyFetchFailed("the discovery document names another issuer");
      }
      jwksUrl =
          Optional.ofNullable(discovery.path("jwks_uri").asText(null))
              .orElseThrow(() -> new KeyFetchFailed("the discovery document has no jwks_uri"));
    }
    String body = get(jwksUrl);
    try {
      return JWKSet.parse(body).toPublicJWKSet();
    } catch (java.text.ParseException e) {
      throw new KeyFetchFailed("the issuer's key set is not a JWK set");
    }
  }

  /** How many key fetches this fetcher made (for metrics and tests). */
  public long fetchCount() {
    return fetches.get();
  }

  private String get(String url) {
    URI uri = checked(url);
    for (int hop = 0; hop <= MAX_REDIRECTS; hop++) {
      HttpResponse<InputStream> response = send(uri);
      int status = response.statusCode();
      if (status >= 300 && status < 400 && response.headers().firstValue("Location").isPresent()) {
        close(response);
        URI next = uri.resolve(response.headers().firstValue("Location").get());
        if (!uri.getHost().equalsIgnoreCase(String.valueOf(next.getHost()))) {
          throw new KeyFetchFailed("the issuer redirected to another host");
        }
        uri = checked(next.toString());
        continue;
      }
      if (status != 200) {
        close(response);
        throw new KeyFetchFailed("the issuer answered " + status);
      }
      return read(response);
    }
    throw new KeyFetchFailed("too many redirects");
  }

  private HttpResponse<InputStream> send(URI uri) {
    fetches.incrementAndGet();
    HttpRequest request =
        HttpRequest.newBuilder(uri)
            .timeout(TIMEOUT)
            .header("Accept", "application/json")
            .GET()
            .build();
    try {
      return client.send(request, HttpResponse.BodyHandlers.ofInputStream());
    } catch (IOException e) {
      throw new KeyFetchFailed("the issuer could not be reached");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KeyFetchFailed("interrupted while fetching keys");
    }
  }

  private static String read(HttpResponse<InputStream> response) {
    try (InputStream in = response.body()) {
      byte[] bytes = in.readNBytes(MAX_BYTES + 1);
      if (bytes.length > MAX_BYTES) {
        throw new KeyFetchFailed("the issuer's response is larger than " + MAX_BYTES + " bytes");
      }
      return new String(bytes, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new KeyFetchFailed("the issuer's response could not be read");
    }
  }

  private static void close(HttpResponse<InputStream> response) {
    try {
      response.body().close();
    } catch (IOException ignored) {
      // nothing to do: the response is abandoned
    }
  }

  /** Scheme and address rules, checked before every request, redirects included. */
  URI checked(String url) {
    URI uri;
    try {
      uri = new URI(url);
    } catch (java.net.URISyntaxException e) {
      throw new KeyFetchFailed("not a URL");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("https") && !(allowHttp && scheme.equals("http"))) {
      throw new KeyFetchFailed("key URLs must be https");
    }
    if (uri.getHost() == null || uri.getUserInfo() != null) {
      throw new KeyFetchFailed("key URLs need a host and no user info");
    }
    try {
      for (InetAddress address : InetAddress.getAllByName(uri.getHost())) {
        if (address.isLinkLocalAddress()
            || address.isAnyLocalAddress()
            || address.isMulticastAddress()) {
          throw new KeyFetchFailed(
              "key URLs must not point to link-local, wildcard or multicast addresses");
        }
      }
    } catch (java.net.UnknownHostException e) {
      throw new KeyFetchFailed("the issuer's host does not resolve");
    }
    return uri;
  }

  private static JsonNode json(String body, String what) {
    try {
      return JSON.readTree(body);
    } catch (IOException e) {
      throw new KeyFetchFailed("the " + what + " is not JSON");
    }
  }

  /** A key fetch that failed; the token is then refused (401) with this reason. */
  static final class KeyFetchFailed extends RuntimeException {
    KeyFetchFailed(String reason) {
      super(reason);
    }
  }
}
