package dev.controlplane.cli.config;

import dev.controlplane.cli.CliException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a command talks to, resolved from the context, the environment and the flags. Precedence,
 * highest first: flags ({@code --context}, {@code --server}, {@code --grpc-server}, {@code
 * --tenant}); {@code CPCTL_*} environment variables; the context; the defaults of a local server
 * ({@code scripts/run-local}).
 */
public record Target(
    String contextName,
    List<URI> servers,
    List<String> grpcServers,
    Optional<Path> caFile,
    Optional<ClientCertificate> clientCertificate,
    Optional<String> tenant,
    CredentialsConfig credentials,
    Map<String, String> env) {

  /** How long one request or call may take before it fails with exit 4 (CPCTL_REQUEST_TIMEOUT). */
  public static final java.time.Duration DEFAULT_REQUEST_TIMEOUT = java.time.Duration.ofSeconds(60);

  public static final String DEFAULT_SERVER = "http://127.0.0.1:9080";
  public static final String DEFAULT_GRPC_SERVER = "127.0.0.1:9090";

  /** A certificate chain and its private key, both PEM files, that cpctl presents over TLS. */
  public record ClientCertificate(Path cert, Path key) {}

  /** The flags that override a context. */
  public record Overrides(String context, List<String> servers, List<String> grpcServers) {}

  public static Target resolve(CliConfig config, Map<String, String> env, Overrides flags) {
    String name = first(flags.context(), env.get("CPCTL_CONTEXT"), config.currentContext);
    ContextConfig context =
        name == null
            ? new ContextConfig()
            : config
                .context(name)
                .orElseThrow(
                    () ->
                        CliException.config(
                            "context "
                                + name
                                + " does not exist (cpctl config get-contexts lists them)"));
    List<String> servers =
        firstList(flags.servers(), env.get("CPCTL_SERVER"), context.servers, DEFAULT_SERVER);
    List<String> grpc =
        firstList(
            flags.grpcServers(),
            env.get("CPCTL_GRPC_SERVER"),
            context.grpcServers,
            DEFAULT_GRPC_SERVER);
    String ca = first(env.get("CPCTL_CA_FILE"), context.caFile);
    return new Target(
        name == null ? "(none)" : name,
        servers.stream().map(Target::serverUri).toList(),
        grpc,
        Optional.ofNullable(ca).map(Path::of),
        clientCertificate(
            first(env.get("CPCTL_CLIENT_CERT"), context.clientCert),
            first(env.get("CPCTL_CLIENT_KEY"), context.clientKey)),
        Optional.ofNullable(first(env.get("CPCTL_TENANT"), context.tenant)),
        context.credentials == null ? new CredentialsConfig() : context.credentials,
        env);
  }

  /**
   * How long one HTTP request or gRPC call may take: {@code CPCTL_REQUEST_TIMEOUT} seconds, 60 by
   * default. A node that accepts connections and never answers (frozen, or a wrong port) must not
   * hold a command forever.
   */
  public java.time.Duration requestTimeout() {
    String text = env.get("CPCTL_REQUEST_TIMEOUT");
    if (text == null || text.isBlank()) {
      return DEFAULT_REQUEST_TIMEOUT;
    }
    try {
      int seconds = Integer.parseInt(text.trim());
      if (seconds >= 1 && seconds <= 86_400) {
        return java.time.Duration.ofSeconds(seconds);
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    throw CliException.config(
        "CPCTL_REQUEST_TIMEOUT must be a whole number of seconds from 1 to 86400, not '"
            + text
            + "'");
  }

  private static Optional<ClientCertificate> clientCertificate(String cert, String key) {
    if (cert == null && key == null) {
      return Optional.empty();
    }
    if (cert == null || key == null) {
      throw CliException.config(
          "a client certificate needs its key: set both client-cert and client-key on the context"
              + " (or CPCTL_CLIENT_CERT and CPCTL_CLIENT_KEY); only "
              + (cert == null ? "the key" : "the certificate")
              + " is set");
    }
    return Optional.of(new ClientCertificate(Path.of(cert), Path.of(key)));
  }

  /** The tenant given on the command line, else the context's; a usage error when neither. */
  public String tenantOr(String flag) {
    String chosen = first(flag, tenant.orElse(null));
    if (chosen == null) {
      throw CliException.usage(
          "no tenant: give --tenant (-t), set CPCTL_TENANT, or set one on the context"
              + " (cpctl config set-context NAME --tenant T)");
    }
    return chosen;
  }

  /** {@code CPCTL_TOKEN}: a bearer token (operator or service token) that overrides the context. */
  public Optional<String> envToken() {
    return nonEmpty(env.get("CPCTL_TOKEN"));
  }

  public Optional<String> operatorToken() {
    return secret(credentials.operatorToken, credentials.operatorTokenEnv, "operator-token-env");
  }

  public Optional<String> brokerToken() {
    return nonEmpty(env.get("CPCTL_BROKER_TOKEN"))
        .or(() -> secret(credentials.brokerToken, credentials.brokerTokenEnv, "broker-token-env"));
  }

  private Optional<String> secret(String literal, String envName, String setting) {
    if (literal != null && !literal.isEmpty()) {
      return Optional.of(literal);
    }
    if (envName == null || envName.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        nonEmpty(env.get(envName))
            .orElseThrow(
                () ->
                    CliException.config(
                        "context "
                            + contextName
                            + ": "
                            + setting
                            + " names "
                            + envName
                            + ", which is not set")));
  }

  private static URI serverUri(String text) {
    String trimmed = text.trim().replaceAll("/+$", "");
    URI uri;
    try {
      uri = URI.create(trimmed);
    } catch (IllegalArgumentException e) {
      throw CliException.config("server " + text + " is not a URL: " + e.getMessage());
    }
    if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())
        || uri.getHost() == null) {
      throw CliException.config(
          "server " + text + " must be an http:// or https:// URL, for example " + DEFAULT_SERVER);
    }
    return uri;
  }

  private static Optional<String> nonEmpty(String value) {
    return value == null || value.isEmpty() ? Optional.empty() : Optional.of(value);
  }

  private static String first(String... values) {
    return Arrays.stream(values).filter(v -> v != null && !v.isEmpty()).findFirst().orElse(null);
  }

  private static List<String> firstList(
      List<String> flag, String env, List<String> context, String fallback) {
    if (flag != null && !flag.isEmpty()) {
      return flag;
    }
    if (env != null && !env.isBlank()) {
      return Arrays.stream(env.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }
    if (context != null && !context.isEmpty()) {
      return context;
    }
    return List.of(fallback);
  }
}
