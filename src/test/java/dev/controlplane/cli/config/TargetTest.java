package dev.controlplane.cli.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TargetTest {

  private static final Target.Overrides NONE = new Target.Overrides(null, null, null);

  private static CliConfig config() {
    CliConfig config = new CliConfig();
    ContextConfig prod = config.contextForUpdate("prod");
    prod.servers = List.of("https://cp1.example.net", "https://cp2.example.net/");
    prod.grpcServers = List.of("https://cp1.example.net:9090");
    prod.tenant = "acme";
    prod.credentials.operatorTokenEnv = "OPS_TOKEN";
    config.contextForUpdate("dev").servers = List.of("http://127.0.0.1:19080");
    return config;
  }

  @Test
  void flagsBeatTheEnvironmentWhichBeatsTheContext() {
    Target context = Target.resolve(config(), Map.of(), NONE);
    assertThat(context.contextName()).isEqualTo("prod");
    assertThat(context.servers())
        .containsExactly(
            URI.create("https://cp1.example.net"), URI.create("https://cp2.example.net"));
    assertThat(context.tenantOr(null)).isEqualTo("acme");
    assertThat(context.tenantOr("other")).isEqualTo("other");

    Target env =
        Target.resolve(
            config(),
            Map.of(
                "CPCTL_CONTEXT",
                "dev",
                "CPCTL_SERVER",
                "http://a:1, http://b:2",
                "CPCTL_TENANT",
                "t2"),
            NONE);
    assertThat(env.contextName()).isEqualTo("dev");
    assertThat(env.servers()).containsExactly(URI.create("http://a:1"), URI.create("http://b:2"));
    assertThat(env.grpcServers()).as("the default").containsExactly(Target.DEFAULT_GRPC_SERVER);
    assertThat(env.tenant()).contains("t2");

    Target flags =
        Target.resolve(
            config(),
            Map.of("CPCTL_CONTEXT", "dev"),
            new Target.Overrides("prod", List.of("http://c:3"), List.of("c:4")));
    assertThat(flags.contextName()).isEqualTo("prod");
    assertThat(flags.servers()).containsExactly(URI.create("http://c:3"));
    assertThat(flags.grpcServers()).containsExactly("c:4");
  }

  @Test
  void withoutAnyConfigurationALocalServerIsAssumed() {
    Target target = Target.resolve(new CliConfig(), Map.of(), NONE);
    assertThat(target.servers()).containsExactly(URI.create(Target.DEFAULT_SERVER));
    assertThat(target.operatorToken()).isEmpty();
    assertThatThrownBy(() -> target.tenantOr(null)).hasMessageContaining("no tenant");
  }

  @Test
  void anUnknownContextABadUrlOrAnUnsetTokenVariableAreConfigurationErrors() {
    assertThatThrownBy(
            () -> Target.resolve(config(), Map.of(), new Target.Overrides("nope", null, null)))
        .hasMessageContaining("context nope does not exist");
    assertThatThrownBy(
            () ->
                Target.resolve(
                    config(), Map.of(), new Target.Overrides(null, List.of("cp1:9080"), null)))
        .hasMessageContaining("must be an http:// or https:// URL");
    Target prod = Target.resolve(config(), Map.of(), NONE);
    assertThatThrownBy(prod::operatorToken).hasMessageContaining("OPS_TOKEN, which is not set");
    assertThat(Target.resolve(config(), Map.of("OPS_TOKEN", "t0k"), NONE).operatorToken())
        .contains("t0k");
  }

  @Test
  void aClientCertificateComesFromTheEnvironmentOrTheContextAndNeedsItsKey() {
    CliConfig config = config();
    ContextConfig prod = config.context("prod").orElseThrow();
    prod.clientCert = "/etc/cpctl/broker.crt";
    prod.clientKey = "/etc/cpctl/broker.key";

    assertThat(Target.resolve(config, Map.of(), NONE).clientCertificate())
        .contains(
            new Target.ClientCertificate(
                java.nio.file.Path.of("/etc/cpctl/broker.crt"),
                java.nio.file.Path.of("/etc/cpctl/broker.key")));
    assertThat(
            Target.resolve(config, Map.of("CPCTL_CLIENT_CERT", "/tmp/other.crt"), NONE)
                .clientCertificate()
                .map(Target.ClientCertificate::cert))
        .contains(java.nio.file.Path.of("/tmp/other.crt"));
    assertThat(Target.resolve(config(), Map.of(), NONE).clientCertificate()).isEmpty();

    assertThatThrownBy(
            () -> Target.resolve(config(), Map.of("CPCTL_CLIENT_CERT", "/tmp/b.crt"), NONE))
        .hasMessageContaining("needs its key")
        .hasMessageContaining("only the certificate is set");
    assertThatThrownBy(
            () -> Target.resolve(config(), Map.of("CPCTL_CLIENT_KEY", "/tmp/b.key"), NONE))
        .hasMessageContaining("only the key is set");
  }
}
