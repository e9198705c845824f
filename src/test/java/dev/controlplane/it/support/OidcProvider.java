package dev.controlplane.it.support;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.OAuth2Config;
import no.nav.security.mock.oauth2.http.MockWebServerWrapper;
import no.nav.security.mock.oauth2.http.Ssl;
import no.nav.security.mock.oauth2.http.SslKeystore;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import no.nav.security.mock.oauth2.token.KeyProvider;
import no.nav.security.mock.oauth2.token.OAuth2TokenProvider;

/**
 * A real OIDC provider for the integration tests (mock-oauth2-server over HTTP: discovery, JWKS,
 * ES256), one per test JVM. Each issuer id is its own issuer with its own key.
 */
public final class OidcProvider {

  public static final String AUDIENCE = "controlplane";
  private static MockOAuth2Server server;
  private static KeyProvider keys;

  private OidcProvider() {}

  public static synchronized MockOAuth2Server server() {
    if (server == null) {
      keys = new KeyProvider(List.of(), "ES256");
      server = start(keys);
    }
    return server;
  }

  /** A provider over HTTP that signs with the keys (and their algorithm) of {@code keys}. */
  static MockOAuth2Server start(KeyProvider keys) {
    return start(keys, new MockWebServerWrapper(), null);
  }

  /**
   * A provider over https, ES256, serving {@code identity} (a certificate for localhost), which
   * {@code ca} signed.
   */
  public static MockOAuth2Server startHttps(Certificates.Pair identity, Certificates.Pair ca)
      throws Exception {
    dev.controlplane.tls.PemFiles.Identity pem =
        dev.controlplane.tls.PemFiles.identity(identity.cert(), identity.key());
    java.security.KeyStore store = java.security.KeyStore.getInstance("PKCS12");
    store.load(null, null);
    store.setKeyEntry("idp", pem.key(), "changeit".toCharArray(), pem.chain());
    MockWebServerWrapper https =
        new MockWebServerWrapper(new Ssl(new SslKeystore("changeit", store)));
    return start(new KeyProvider(List.of(), "ES256"), https, Certificates.trusting(ca.cert()));
  }

  private static MockOAuth2Server start(
      KeyProvider keys, MockWebServerWrapper http, javax.net.ssl.SSLContext trust) {
    OAuth2Config config =
        new OAuth2Config(false, null, null, false, new OAuth2TokenProvider(keys), Set.of(), http);
    MockOAuth2Server started = new MockOAuth2Server(config);
    started.start();
    Runtime.getRuntime().addShutdownHook(new Thread(started::shutdown));
    warmUp(started, trust);
    return started;
  }

  /**
   * Serves one discovery document before a node asks for one. A provider's first answer in a test
   * JVM loads its HTTP stack: 1.9 s on a loaded machine, inside the node's 2 s request timeout for
   * key servers, which then refused the token (AlgorithmsIT). The node's own first fetch takes tens
   * of milliseconds.
   */
  private static void warmUp(MockOAuth2Server started, javax.net.ssl.SSLContext trust)
      throws java.io.UncheckedIOException {
    java.net.http.HttpRequest request =
        java.net.http.HttpRequest.newBuilder(started.wellKnownUrl("warm-up").uri())
            .timeout(java.time.Duration.ofSeconds(30))
            .build();
    try {
      int status =
          (trust == null
                  ? java.net.http.HttpClient.newHttpClient()
                  : java.net.http.HttpClient.newBuilder().sslContext(trust).build())
              .send(request, java.net.http.HttpResponse.BodyHandlers.discarding())
              .statusCode();
      if (status != 200) {
        throw new IllegalStateException("the OIDC provider answered " + status + " to discovery");
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  public static String issuer(String id) {
    return server().issuerUrl(id).toString();
  }

  public static String discoveryUrl(String id) {
    return server().wellKnownUrl(id).toString();
  }

  public static String jwksUrl(String id) {
    return server().jwksUrl(id).toString();
  }

  /**
   * The issuer's own signing key (with its private part), for tokens the provider would not issue.
   */
  public static ECKey key(String id) {
    server();
    return (ECKey) keys.signingKey(id);
  }

  /** A token as the provider issues it: ES256, the issuer's key, audience {@link #AUDIENCE}. */
  public static String token(String id, String subject, Map<String, Object> claims) {
    return token(server(), id, subject, claims);
  }

  /**
   * A token as {@code provider} issues it for its issuer {@code id}, audience {@link #AUDIENCE}.
   */
  public static String token(
      MockOAuth2Server provider, String id, String subject, Map<String, Object> claims) {
    return provider
        .issueToken(
            id,
            "client",
            new DefaultOAuth2TokenCallback(id, subject, "JWT", List.of(AUDIENCE), claims, 300))
        .serialize();
  }

  /** An issuer record for {@code provider}'s issuer {@code id}, found through discovery. */
  public static com.fasterxml.jackson.databind.node.ObjectNode issuerRecord(
      MockOAuth2Server provider, String id) {
    var issuer = Http.JSON.createObjectNode();
    issuer.put("issuer", provider.issuerUrl(id).toString());
    issuer.putArray("audiences").add(AUDIENCE);
    issuer.put("discovery_url", provider.wellKnownUrl(id).toString());
    return issuer;
  }

  /** Claims of a normal token of issuer {@code id}, to be varied by a test. */
  public static JWTClaimsSet.Builder claims(String id, String subject) {
    Instant now = Instant.now();
    return new JWTClaimsSet.Builder()
        .issuer(issuer(id))
        .subject(subject)
        .audience(AUDIENCE)
        .issueTime(Date.from(now))
        .expirationTime(Date.from(now.plusSeconds(300)));
  }

  /** Signs with the issuer's real key, header as given (kid defaults to the key's). */
  public static String sign(String id, JWSHeader.Builder header, JWTClaimsSet claims) {
    return sign(key(id), header, claims);
  }

  public static String sign(ECKey key, JWSHeader.Builder header, JWTClaimsSet claims) {
    SignedJWT jwt = new SignedJWT(header.build(), claims);
    try {
      jwt.sign(new ECDSASigner(key));
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
    return jwt.serialize();
  }

  public static JWSHeader.Builder es256(String id) {
    return new JWSHeader.Builder(JWSAlgorithm.ES256)
        .type(JOSEObjectType.JWT)
        .keyID(key(id).getKeyID());
  }
}
