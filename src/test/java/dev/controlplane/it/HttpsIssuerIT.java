package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.controlplane.it.support.Auth;
import dev.controlplane.it.support.Certificates;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.Metrics;
import dev.controlplane.it.support.OidcProvider;
import dev.controlplane.it.support.SharedServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issuers over https, as in production (the other tests' provider serves plain http, which they
 * allow): a real OIDC provider whose certificate a private CA signed is trusted because {@code
 * SERVICE_CONTROLPLANE_OIDC_CA_FILE} names that CA, and one whose CA it does not name is refused.
 */
class HttpsIssuerIT {

  private static MockOAuth2Server trusted;
  private static MockOAuth2Server untrusted;

  @BeforeAll
  static void providers() throws Exception {
    SharedServer.ensureStarted();
    Certificates certificates = SharedServer.certificates();
    Certificates.Pair ca = SharedServer.issuerCa();
    trusted = OidcProvider.startHttps(certificates.server(ca, "https-idp"), ca);
    Certificates.Pair otherCa = certificates.ca("not-the-issuer-ca");
    untrusted = OidcProvider.startHttps(certificates.server(otherCa, "other-idp"), otherCa);
  }

  @AfterAll
  static void stop() {
    trusted.shutdown();
    untrusted.shutdown();
  }

  private static Http.Reply exchangeThrough(MockOAuth2Server provider, String tenant) {
    ObjectNode issuer = OidcProvider.issuerRecord(provider, tenant);
    assertThat(issuer.path("issuer").asText()).startsWith("https://");
    var boot =
        Auth.bootstrap(
            SharedServer.bootstrapPort(),
            tenant,
            List.of(issuer),
            List.of(Auth.principal(issuer.path("issuer").asText(), "alice")),
            SharedServer.BOOTSTRAP_TOKEN);
    assertThat(boot.status()).as(boot.body()).isEqualTo(201);
    return Auth.exchange(
        SharedServer.httpPort(),
        tenant,
        OidcProvider.token(provider, tenant, "alice", Map.of()),
        "{}");
  }

  private static final String FETCHES = "controlplane_issuer_key_fetches_total";

  @Test
  void anIssuerWhoseCertificateTheConfiguredCaSignedIssuesTokens() throws Exception {
    double fetched = Metrics.value(FETCHES, "outcome=\"fetched\"");
    var reply = exchangeThrough(trusted, "https-issuer");
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    assertThat(reply.json().path("service_token").asText()).isNotEmpty();
    Metrics.await(FETCHES, "outcome=\"fetched\"", n -> n >= fetched + 1);
  }

  @Test
  void anIssuerWhoseCaIsNeitherTheJdksNorConfiguredIsRefusedAndTheReasonLogged() throws Exception {
    double tls = Metrics.value(FETCHES, "outcome=\"tls\"");
    var reply = exchangeThrough(untrusted, "https-untrusted");
    assertThat(reply.status()).as(reply.body()).isEqualTo(401);
    java.util.regex.Pattern reason =
        java.util.regex.Pattern.compile(
            "refused for tenant https-untrusted: .*TLS handshake failed");
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!reason.matcher(SharedServer.process().logText()).find()) {
      assertThat(System.nanoTime())
          .as("the refusal's reason in the node's log")
          .isLessThan(deadline);
      Thread.sleep(100);
    }
    // Operators see it without the log: a key server the node does not trust, not one that is down.
    Metrics.await(FETCHES, "outcome=\"tls\"", n -> n >= tls + 1);
  }
}
