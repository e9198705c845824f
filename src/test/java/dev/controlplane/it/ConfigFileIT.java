package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.nimbusds.jwt.SignedJWT;
import dev.controlplane.it.support.Auth;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.Ports;
import dev.controlplane.it.support.ServerProcess;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.OAuth2Config;
import no.nav.security.mock.oauth2.http.MockWebServerWrapper;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import no.nav.security.mock.oauth2.token.KeyProvider;
import no.nav.security.mock.oauth2.token.OAuth2TokenProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The YAML configuration file (SERVICE_CONTROLPLANE_CONFIG_FILE) on a real node: the spec's key
 * {@code oidc_allowed_algorithms} takes effect, the environment overrides the file, and a system
 * property given through JVM_ARGS overrides both, all on one node. A real OIDC provider signs RS256
 * tokens, which the default (ES256 only) refuses.
 */
class ConfigFileIT {

  private static final String AUDIENCE = "controlplane";
  private static final String TENANT = "cfgfile";
  private static MockOAuth2Server rsaProvider;

  @BeforeAll
  static void provider() {
    rsaProvider =
        new MockOAuth2Server(
            new OAuth2Config(
                false,
                null,
                null,
                false,
                new OAuth2TokenProvider(new KeyProvider(List.of(), "RS256")),
                Set.of(),
                new MockWebServerWrapper()));
    rsaProvider.start();
  }

  @AfterAll
  static void stopProvider() {
    rsaProvider.shutdown();
  }

  private static String rs256Token() {
    return rsaProvider
        .issueToken(
            "rsa",
            "client",
            new DefaultOAuth2TokenCallback("rsa", "alice", "JWT", List.of(AUDIENCE), Map.of(), 300))
        .serialize();
  }

  /**
   * One node, three layers: the file sets three settings, the environment overrides two of them, a
   * JVM_ARGS system property overrides one of those two again. Each setting shows in an answer: the
   * algorithms in whether an RS256 token is exchanged, the token lifetime in {@code expires_in},
   * the JWKS lifetime in its {@code Cache-Control}.
   */
  @Test
  void theFileSetsTheEnvironmentOverridesItAndJvmArgsOverrideBothOnOneNode() throws Exception {
    String db = TestDatabase.url(TestDatabase.name() + "_empty");
    TestDatabase.reset(db);
    int http = Ports.free();
    int bootstrap = Ports.free();
    Path file = Files.createTempFile("controlplane-", ".yaml");
    Files.writeString(
        file,
        """
        # the spec's key, as a YAML list
        oidc_allowed_algorithms: [RS256]
        token_ttl: 7m
        jwks_max_age: 7m
        db_migrate: migrate
        bootstrap_enabled: true
        bootstrap_bind_addr: "127.0.0.1:%d"
        bootstrap_token: %s
        """
            .formatted(bootstrap, SharedServer.BOOTSTRAP_TOKEN));
    var env = SharedServer.baseEnvironment(http, Ports.free(), db);
    env.put("SERVICE_CONTROLPLANE_CONFIG_FILE", file.toString());
    env.put("SERVICE_CONTROLPLANE_TOKEN_TTL", "8m");
    env.put("SERVICE_CONTROLPLANE_JWKS_MAX_AGE", "8m");
    env.put("JVM_ARGS", "-Dservice.controlplane.jwks.max.age=9m");
    env.put("SERVICE_CONTROLPLANE_TOKEN_TTLL", "1m"); // a typo: warned about, and ignored
    String token = rs256Token();
    assertThat(SignedJWT.parse(token).getHeader().getAlgorithm().getName()).isEqualTo("RS256");

    try (ServerProcess node = new ServerProcess("config-file", env).start()) {
      node.awaitReady(Duration.ofSeconds(120));
      bootstrapTenant(bootstrap);

      var exchanged = Auth.exchange(http, TENANT, token, "{}");
      assertThat(exchanged.status())
          .as("RS256 is allowed by the file, which nothing overrides: %s", exchanged.body())
          .isEqualTo(200);
      assertThat(exchanged.json().path("expires_in").asLong())
          .as("the environment's token lifetime (8m) wins over the file's (7m)")
          .isEqualTo(480);

      var jwks = new Http(http, null).get("/v1/tenants/" + TENANT + "/.well-known/jwks.json");
      assertThat(jwks.status()).as(jwks.body()).isEqualTo(200);
      assertThat(jwks.raw().headers().firstValue("Cache-Control").orElse(""))
          .as("a -D system property in JVM_ARGS (9m) wins over the environment (8m) and the file")
          .contains("max-age=540");
      assertThat(node.logText())
          .as("a misspelt variable is named with the setting meant")
          .contains(
              "environment variable SERVICE_CONTROLPLANE_TOKEN_TTLL is not a setting and is"
                  + " ignored (did you mean SERVICE_CONTROLPLANE_TOKEN_TTL?)");
    }
  }

  private static void bootstrapTenant(int bootstrapPort) throws Exception {
    ObjectNode issuer = Http.JSON.createObjectNode();
    String iss = rsaProvider.issuerUrl("rsa").toString();
    issuer.put("issuer", iss);
    issuer.putArray("audiences").add(AUDIENCE);
    issuer.put("jwks_url", rsaProvider.jwksUrl("rsa").toString());
    var reply =
        Auth.bootstrap(
            bootstrapPort,
            TENANT,
            List.of(issuer),
            List.of(Auth.principal(iss, "alice")),
            SharedServer.BOOTSTRAP_TOKEN);
    assertThat(reply.status()).as(reply.body()).isEqualTo(201);
  }
}
