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
 * property given through JVM_ARGS overrides both. A real OIDC provider signs RS256 tokens, which
 * the default (ES256 only) refuses.
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

  @Test
  void theFileSetsAllowedAlgorithmsTheEnvironmentOverridesItAndJvmArgsOverrideBoth()
      throws Exception {
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
        db_migrate: migrate
        bootstrap_enabled: true
        bootstrap_bind_addr: "127.0.0.1:%d"
        bootstrap_token: %s
        """
            .formatted(bootstrap, SharedServer.BOOTSTRAP_TOKEN));
    var env = SharedServer.baseEnvironment(http, Ports.free(), db);
    env.put("SERVICE_CONTROLPLANE_CONFIG_FILE", file.toString());
    String token = rs256Token();
    assertThat(SignedJWT.parse(token).getHeader().getAlgorithm().getName()).isEqualTo("RS256");

    try (ServerProcess node = new ServerProcess("config-file", env).start()) {
      node.awaitReady(Duration.ofSeconds(120));
      bootstrapTenant(bootstrap);
      assertThat(Auth.exchange(http, TENANT, token, "{}").status())
          .as("RS256 is allowed by the file")
          .isEqualTo(200);
    }

    env.put("SERVICE_CONTROLPLANE_OIDC_ALLOWED_ALGORITHMS", "ES256");
    try (ServerProcess node = new ServerProcess("config-file-env", env).start()) {
      node.awaitReady(Duration.ofSeconds(120));
      assertThat(Auth.exchange(http, TENANT, rs256Token(), "{}").status())
          .as("the environment variable overrides the file")
          .isEqualTo(401);
    }

    env.put("JVM_ARGS", "-Dservice.controlplane.oidc.allowed.algorithms=RS256,ES256");
    try (ServerProcess node = new ServerProcess("config-file-sysprop", env).start()) {
      node.awaitReady(Duration.ofSeconds(120));
      assertThat(Auth.exchange(http, TENANT, rs256Token(), "{}").status())
          .as("a -D system property given in JVM_ARGS overrides the environment")
          .isEqualTo(200);
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
