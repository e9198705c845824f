package dev.controlplane.config;

import dev.controlplane.tls.PemFiles;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The settings of authentication, service tokens, signing keys and bootstrap. Kept apart from
 * {@link ControlPlaneConfig} so neither class grows past a readable size; same naming rules.
 */
@ApplicationScoped
public class AuthConfig {

  /** Algorithms the spec allows for upstream tokens; {@code none} and HMAC are never among them. */
  public static final Set<String> SUPPORTED_ALGORITHMS =
      Set.of("ES256", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512");

  @Inject
  @ConfigProperty(name = "service.controlplane.key.encryption.key")
  Optional<String> keyEncryptionKey;

  @Inject
  @ConfigProperty(name = "service.controlplane.key.encryption.key.fallbacks")
  Optional<String> keyEncryptionKeyFallbacks;

  @Inject
  @ConfigProperty(name = "service.controlplane.dev.mode", defaultValue = "false")
  String devMode;

  @Inject
  @ConfigProperty(name = "service.controlplane.oidc.allowed.algorithms", defaultValue = "ES256")
  String allowedAlgorithms;

  @Inject
  @ConfigProperty(name = "service.controlplane.oidc.allow.http", defaultValue = "false")
  String allowHttp;

  @Inject
  @ConfigProperty(name = "service.controlplane.oidc.allowed.networks")
  Optional<String> allowedNetworks;

  @Inject
  @ConfigProperty(name = "service.controlplane.oidc.ca.file")
  Optional<String> issuerCaFile;

  @Inject
  @ConfigProperty(name = "service.controlplane.oidc.require.low.s", defaultValue = "false")
  String requireLowS;

  @Inject
  @ConfigProperty(name = "service.controlplane.oidc.clock.skew", defaultValue = "60s")
  String clockSkew;

  @Inject
  @ConfigProperty(name = "service.controlplane.oidc.jwks.cache.ttl", defaultValue = "5m")
  String jwksCacheTtl;

  @Inject
  @ConfigProperty(name = "service.controlplane.oidc.jwks.refresh.interval", defaultValue = "30s")
  String jwksRefreshInterval;

  @Inject
  @ConfigProperty(name = "service.controlplane.token.ttl", defaultValue = "15m")
  String tokenTtl;

  @Inject
  @ConfigProperty(name = "service.controlplane.jwks.max.age", defaultValue = "5m")
  String jwksMaxAge;

  @Inject
  @ConfigProperty(name = "service.controlplane.key.rotation.period", defaultValue = "30d")
  String keyRotationPeriod;

  @Inject
  @ConfigProperty(name = "service.controlplane.key.rotation.check.interval", defaultValue = "10s")
  String keyRotationCheckInterval;

  @Inject
  @ConfigProperty(name = "service.bootstrap.enabled", defaultValue = "false")
  String bootstrapEnabled;

  @Inject
  @ConfigProperty(name = "service.bootstrap.bind.addr")
  Optional<String> bootstrapBindAddr;

  @Inject
  @ConfigProperty(name = "service.bootstrap.token")
  Optional<String> bootstrapToken;

  /** The 32-byte key-encryption key, or empty in dev mode without one. */
  public Optional<byte[]> keyEncryptionKey() {
    return keyEncryptionKey
        .filter(s -> !s.isBlank())
        .map(k -> decodeKey("SERVICE_CONTROLPLANE_KEY_ENCRYPTION_KEY", k));
  }

  /**
   * Fallback key-encryption keys, which only decrypt: the keys stored under them are read, and the
   * leader stores them again under the current one, so that a replaced key can be dropped.
   */
  public List<byte[]> keyEncryptionKeyFallbacks() {
    List<byte[]> keys = new ArrayList<>();
    String[] entries = keyEncryptionKeyFallbacks.orElse("").split(",");
    for (int i = 0; i < entries.length; i++) {
      if (!entries[i].isBlank()) {
        keys.add(
            decodeKey(
                "SERVICE_CONTROLPLANE_KEY_ENCRYPTION_KEY_FALLBACKS (entry " + (i + 1) + ")",
                entries[i]));
      }
    }
    return List.copyOf(keys);
  }

  public boolean devMode() {
    return Settings.bool("service.controlplane.dev.mode", devMode);
  }

  public Set<String> allowedAlgorithms() {
    Set<String> algorithms = new LinkedHashSet<>();
    for (String part : allowedAlgorithms.split(",")) {
      String alg = part.trim().toUpperCase(Locale.ROOT);
      if (!alg.isEmpty()) {
        if (!SUPPORTED_ALGORITHMS.contains(alg)) {
          throw Settings.invalid(
              "service.controlplane.oidc.allowed.algorithms",
              allowedAlgorithms,
              "names '" + part.trim() + "', which is not one of " + SUPPORTED_ALGORITHMS);
        }
        algorithms.add(alg);
      }
    }
    if (algorithms.isEmpty()) {
      throw Settings.invalid(
          "service.controlplane.oidc.allowed.algorithms", allowedAlgorithms, "names no algorithm");
    }
    return Set.copyOf(algorithms);
  }

  public boolean allowHttp() {
    return Settings.bool("service.controlplane.oidc.allow.http", allowHttp);
  }

  /**
   * Loopback, private, CGNAT and unique-local networks that issuer key URLs may nevertheless point
   * to (tests, development, an IdP inside the cluster); none by default.
   */
  public NetworkList allowedNetworks() {
    return NetworkList.parse(
        "service.controlplane.oidc.allowed.networks", allowedNetworks.orElse(""));
  }

  /** The file of {@link #issuerCaCertificates}, read again by key fetches when it changes. */
  public Optional<Path> issuerCaFile() {
    String file = issuerCaFile.orElse("").trim();
    return file.isEmpty() ? Optional.empty() : Optional.of(Path.of(file));
  }

  /**
   * CA certificates trusted for issuers' discovery and key URLs besides the JDK's own (an IdP whose
   * certificate a private CA signed); none when the setting is empty.
   */
  public List<X509Certificate> issuerCaCertificates() {
    try {
      Optional<Path> path = issuerCaFile();
      return path.isEmpty() ? List.of() : List.of(PemFiles.certificates(path.get()));
    } catch (PemFiles.TlsFileException | java.nio.file.InvalidPathException e) {
      throw Settings.invalid(
          "service.controlplane.oidc.ca.file",
          issuerCaFile.orElse("").trim(),
          "cannot be used: " + e.getMessage());
    }
  }

  /**
   * Whether ES256 signatures with a high S value (the malleable twin of a valid one) are refused.
   */
  public boolean requireLowS() {
    // Parsed as every boolean setting is: MicroProfile's converter reads "ture" as false.
    return Settings.bool("service.controlplane.oidc.require.low.s", requireLowS);
  }

  public Duration clockSkew() {
    return ControlPlaneConfig.duration("service.controlplane.oidc.clock.skew", clockSkew);
  }

  public Duration jwksCacheTtl() {
    return ControlPlaneConfig.duration("service.controlplane.oidc.jwks.cache.ttl", jwksCacheTtl);
  }

  public Duration jwksRefreshInterval() {
    return ControlPlaneConfig.duration(
        "service.controlplane.oidc.jwks.refresh.interval", jwksRefreshInterval);
  }

  public Duration tokenTtl() {
    return ControlPlaneConfig.duration("service.controlplane.token.ttl", tokenTtl);
  }

  public Duration jwksMaxAge() {
    return ControlPlaneConfig.duration("service.controlplane.jwks.max.age", jwksMaxAge);
  }

  public Duration keyRotationPeriod() {
    return ControlPlaneConfig.duration(
        "service.controlplane.key.rotation.period", keyRotationPeriod);
  }

  public Duration keyRotationCheckInterval() {
    return ControlPlaneConfig.duration(
        "service.controlplane.key.rotation.check.interval", keyRotationCheckInterval);
  }

  public boolean bootstrapEnabled() {
    return Settings.bool("service.bootstrap.enabled", bootstrapEnabled);
  }

  public Optional<String> bootstrapBindAddr() {
    return bootstrapBindAddr.filter(s -> !s.isBlank());
  }

  public Optional<String> bootstrapToken() {
    return bootstrapToken.filter(s -> !s.isBlank());
  }

  /**
   * Parses every setting once, so a bad value stops the start instead of a later request; each
   * invalid one goes to {@code problems}.
   */
  public void validate(SettingProblems problems) {
    problems.check(this::devMode);
    problems.check(this::allowHttp);
    problems.check(this::requireLowS);
    problems.check(this::bootstrapEnabled);
    problems.check(this::allowedAlgorithms);
    problems.check(this::allowedNetworks);
    problems.check(this::issuerCaCertificates);
    problems.check(this::clockSkew);
    problems.check(this::jwksCacheTtl);
    problems.check(this::jwksRefreshInterval);
    problems.check(this::keyRotationCheckInterval);
    problems.check(this::lifetimes);
    problems.check(this::keyEncryption);
    problems.check(this::keyEncryptionKeyFallbacks);
    problems.check(this::bootstrap);
  }

  private void lifetimes() {
    if (tokenTtl().isZero() || jwksMaxAge().isZero()) {
      throw new InvalidSettingException(
          "SERVICE_CONTROLPLANE_TOKEN_TTL and SERVICE_CONTROLPLANE_JWKS_MAX_AGE must be positive");
    }
    if (keyRotationPeriod().compareTo(jwksMaxAge().plus(tokenTtl())) <= 0) {
      throw new InvalidSettingException(
          "SERVICE_CONTROLPLANE_KEY_ROTATION_PERIOD must be longer than"
              + " SERVICE_CONTROLPLANE_JWKS_MAX_AGE + SERVICE_CONTROLPLANE_TOKEN_TTL");
    }
  }

  private void keyEncryption() {
    if (keyEncryptionKey().isEmpty() && !devMode()) {
      throw new InvalidSettingException(
          "SERVICE_CONTROLPLANE_KEY_ENCRYPTION_KEY is not set: it protects the stored signing keys"
              + " (base64 of 32 random bytes, e.g. `openssl rand -base64 32`);"
              + " only SERVICE_CONTROLPLANE_DEV_MODE=true starts without it");
    }
  }

  /**
   * The bootstrap listener is one of its own: on the main HTTP or gRPC port it would either fail to
   * bind or answer in place of the API. Its address is otherwise checked when it binds.
   */
  public void requireBootstrapPortApart(int httpPort, int grpcPort) {
    if (!bootstrapEnabled()) {
      return;
    }
    Optional<InetSocketAddress> address = bootstrapAddress();
    int port = address.map(InetSocketAddress::getPort).orElse(-1);
    if (port == httpPort || port == grpcPort) {
      throw Settings.invalid(
          "service.bootstrap.bind.addr",
          bootstrapBindAddr().orElseThrow(),
          "uses the port of SERVICE_CONTROLPLANE_"
              + (port == httpPort ? "HTTP" : "GRPC")
              + "_PORT: the bootstrap listener needs a port of its own");
    }
  }

  /** Where the bootstrap listener binds, unresolved; empty when the setting is. */
  public Optional<InetSocketAddress> bootstrapAddress() {
    return bootstrapBindAddr()
        .map(
            text -> {
              try {
                return Settings.hostAndPort(text);
              } catch (Settings.MalformedAddress e) {
                throw Settings.invalid(
                    "service.bootstrap.bind.addr", text, "is not host:port: " + e.getMessage());
              }
            });
  }

  private void bootstrap() {
    if (bootstrapEnabled() && (bootstrapBindAddr().isEmpty() || bootstrapToken().isEmpty())) {
      throw new InvalidSettingException(
          "SERVICE_BOOTSTRAP_ENABLED=true needs SERVICE_BOOTSTRAP_BIND_ADDR (host:port) and SERVICE_BOOTSTRAP_TOKEN");
    }
    if (bootstrapEnabled() && bootstrapToken().get().length() < 16) {
      throw new InvalidSettingException("SERVICE_BOOTSTRAP_TOKEN must be at least 16 characters");
    }
    if (bootstrapEnabled()) {
      bootstrapAddress();
    }
  }

  /** A key-encryption key; the message names {@code setting}, never the value. */
  private static byte[] decodeKey(String setting, String text) {
    byte[] key;
    try {
      key = Base64.getDecoder().decode(text.trim());
    } catch (IllegalArgumentException e) {
      throw new InvalidSettingException(setting + " is not valid base64");
    }
    if (key.length != 32) {
      throw new InvalidSettingException(setting + " must be 32 bytes (base64), got " + key.length);
    }
    return key;
  }
}
