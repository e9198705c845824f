package dev.controlplane.cli.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.controlplane.cli.config.CliConfig;
import dev.controlplane.cli.config.ContextConfig;
import dev.controlplane.cli.config.Target;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CredentialsTest {

  private static Credentials credentials(ContextConfig context, Map<String, String> env) {
    CliConfig config = new CliConfig();
    config.contexts.add(context);
    config.currentContext = context.name;
    return new Credentials(Target.resolve(config, env, new Target.Overrides(null, null, null)));
  }

  private static ContextConfig context() {
    ContextConfig c = new ContextConfig();
    c.name = "c";
    c.tenant = "acme";
    return c;
  }

  @Test
  void theEnvironmentTokenBeatsTheOperatorTokenWhichBeatsAStoredServiceToken() {
    ContextConfig c = context();
    c.credentials.operatorToken = "operator";
    c.credentials.serviceToken = "stored";
    c.credentials.serviceTokenTenant = "acme";
    assertThat(credentials(c, Map.of("CPCTL_TOKEN", "env")).bearer("acme")).isEqualTo("env");
    assertThat(credentials(c, Map.of()).bearer("acme")).isEqualTo("operator");
    c.credentials.operatorToken = null;
    assertThat(credentials(c, Map.of()).bearer("acme")).isEqualTo("stored");
  }

  @Test
  void aStoredServiceTokenServesOnlyItsTenantUntilItExpiresThenTheTokenCommandIsExchanged() {
    ContextConfig c = context();
    c.credentials.serviceToken = "stored";
    c.credentials.serviceTokenTenant = "acme";
    c.credentials.serviceTokenExpires = Instant.now().minusSeconds(1).toString();
    c.credentials.tokenCommand = "echo upstream-jwt";
    Credentials credentials = credentials(c, Map.of());
    List<String> exchanges = new ArrayList<>();
    credentials.exchangeWith(
        (tenant, upstream) -> {
          exchanges.add(tenant + ":" + upstream);
          return "service-" + tenant;
        });
    assertThat(credentials.bearer("acme")).isEqualTo("service-acme");
    assertThat(credentials.bearer("acme"))
        .as("exchanged once per tenant")
        .isEqualTo("service-acme");
    assertThat(credentials.bearer("other")).isEqualTo("service-other");
    assertThat(exchanges).containsExactly("acme:upstream-jwt", "other:upstream-jwt");
  }

  @Test
  void withoutAnyCredentialTheErrorSaysWhatToConfigure() {
    assertThatThrownBy(() -> credentials(context(), Map.of()).bearer("acme"))
        .hasMessageContaining("has no usable credential")
        .hasMessageContaining("CPCTL_TOKEN");
    ContextConfig c = context();
    c.credentials.brokerTokenEnv = "BROKER";
    assertThat(credentials(c, Map.of("BROKER", "b", "CPCTL_TOKEN", "t")).metadataBearer())
        .contains("b");
    assertThat(credentials(context(), Map.of("CPCTL_TOKEN", "t")).metadataBearer()).contains("t");
  }

  @Test
  void aClientCertificateIdentifiesTheMetadataReadsWithoutABearerUnlessABrokerTokenIsSet() {
    ContextConfig c = context();
    c.clientCert = "broker.crt";
    c.clientKey = "broker.key";
    assertThat(credentials(c, Map.of("CPCTL_TOKEN", "operator")).metadataBearer()).isEmpty();
    assertThat(credentials(c, Map.of()).metadataBearer()).isEmpty();
    assertThat(credentials(c, Map.of("CPCTL_BROKER_TOKEN", "b")).metadataBearer()).contains("b");
  }
}
