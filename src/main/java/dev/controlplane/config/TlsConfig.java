package dev.controlplane.config;

import dev.controlplane.tls.TlsSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Transport security and log settings (docs/configuration.md, "Transport security"). Injected as
 * text and parsed by {@link #settings()}, so a bad value stops the start with one line naming the
 * variable.
 */
@ApplicationScoped
public class TlsConfig {

  static final String CERT = "service.controlplane.tls.cert.path";
  static final String KEY = "service.controlplane.tls.key.path";
  static final String RELOAD = "service.controlplane.tls.reload.interval";

  /** How often the certificate files are read again; positive, since it is a schedule's period. */
  java.time.Duration reloadInterval() {
    return Settings.positiveDuration(RELOAD, reloadInterval);
  }

  static final String MTLS = "service.controlplane.mtls.enabled";
  static final String CA = "service.controlplane.mtls.ca.cert.path";
  static final String VERIFY = "service.controlplane.mtls.verify.peer";
  static final String NAMES = "service.controlplane.mtls.allowed.common.names";
  static final String CRL = "service.controlplane.mtls.crl.path";
  static final String LOG_FORMAT = "service.controlplane.log.format";
  static final String CLUSTER_TLS = "service.controlplane.cluster.tls";
  static final String CLUSTER_CA = "service.controlplane.cluster.ca.cert.path";
  static final String CLUSTER_CRL = "service.controlplane.cluster.crl.path";

  @Inject
  @ConfigProperty(name = CERT)
  Optional<String> certPath;

  @Inject
  @ConfigProperty(name = KEY)
  Optional<String> keyPath;

  @Inject
  @ConfigProperty(name = RELOAD, defaultValue = "10s")
  String reloadInterval;

  @Inject
  @ConfigProperty(name = MTLS, defaultValue = "false")
  String mtlsEnabled;

  @Inject
  @ConfigProperty(name = CA)
  Optional<String> caPath;

  @Inject
  @ConfigProperty(name = VERIFY, defaultValue = "true")
  String verifyPeer;

  @Inject
  @ConfigProperty(name = NAMES)
  Optional<String> allowedNames;

  @Inject
  @ConfigProperty(name = CRL)
  Optional<String> crlPath;

  @Inject
  @ConfigProperty(name = LOG_FORMAT, defaultValue = "simple")
  String logFormat;

  @Inject
  @ConfigProperty(name = CLUSTER_TLS, defaultValue = "false")
  String clusterTls;

  @Inject
  @ConfigProperty(name = CLUSTER_CA)
  Optional<String> clusterCaPath;

  @Inject
  @ConfigProperty(name = CLUSTER_CRL)
  Optional<String> clusterCrlPath;

  /** The parsed settings; throws naming the variable when they are inconsistent. */
  public TlsSettings settings() {
    Optional<Path> cert = path(certPath);
    Optional<Path> key = path(keyPath);
    if (cert.isPresent() != key.isPresent()) {
      throw Settings.invalid(
          cert.isPresent() ? KEY : CERT,
          "",
          "must be set together with " + Settings.envName(cert.isPresent() ? CERT : KEY));
    }
    boolean mtls = Settings.bool(MTLS, mtlsEnabled);
    Optional<Path> ca = path(caPath);
    if (mtls && cert.isEmpty()) {
      throw Settings.invalid(
          MTLS, mtlsEnabled, "needs TLS: set SERVICE_CONTROLPLANE_TLS_CERT_PATH and _KEY_PATH");
    }
    if (mtls && ca.isEmpty()) {
      throw Settings.invalid(CA, "", "must be set when SERVICE_CONTROLPLANE_MTLS_ENABLED=true");
    }
    Optional<Path> crl = path(crlPath);
    if (crl.isPresent() && !mtls) {
      throw Settings.invalid(
          CRL, crlPath.orElse(""), "needs mutual TLS: set SERVICE_CONTROLPLANE_MTLS_ENABLED=true");
    }
    boolean cluster = Settings.bool(CLUSTER_TLS, clusterTls);
    Optional<Path> clusterCa = path(clusterCaPath);
    if (cluster && (cert.isEmpty() || clusterCa.isEmpty())) {
      throw Settings.invalid(
          CLUSTER_TLS,
          clusterTls,
          "needs SERVICE_CONTROLPLANE_TLS_CERT_PATH, _KEY_PATH and"
              + " SERVICE_CONTROLPLANE_CLUSTER_CA_CERT_PATH");
    }
    Optional<Path> clusterCrl = path(clusterCrlPath);
    if (clusterCrl.isPresent() && !cluster) {
      throw Settings.invalid(
          CLUSTER_CRL,
          clusterCrlPath.orElse(""),
          "needs cluster TLS: set SERVICE_CONTROLPLANE_CLUSTER_TLS=true");
    }
    List<String> names =
        allowedNames.stream()
            .flatMap(s -> Arrays.stream(s.split(",")))
            .map(String::trim)
            .filter(s -> !s.isEmpty())
            .toList();
    return new TlsSettings(
        cert,
        key,
        reloadInterval(),
        mtls,
        ca,
        Settings.bool(VERIFY, verifyPeer),
        names,
        cluster,
        clusterCa,
        crl,
        clusterCrl);
  }

  /**
   * Whether the shared broker token may be used at all: not while mutual TLS requires broker
   * certificates (then brokers read over gRPC with their certificate, and HTTP reads need a service
   * token or the operator token).
   */
  public boolean sharedBrokerTokenAccepted() {
    return !(Settings.bool(MTLS, mtlsEnabled) && Settings.bool(VERIFY, verifyPeer));
  }

  /** {@code simple} or {@code json}; Liberty reads the same variable in server.xml. */
  public String logFormat() {
    String format = logFormat.trim().toLowerCase(Locale.ROOT);
    if (!format.equals("simple") && !format.equals("json")) {
      throw Settings.invalid(LOG_FORMAT, logFormat, "is not simple or json");
    }
    return format;
  }

  /** Each invalid setting goes to {@code problems}. */
  public void validate(SettingProblems problems) {
    problems.check(() -> environmentOnly(CERT, certPath.orElse("")));
    problems.check(() -> environmentOnly(LOG_FORMAT, logFormat));
    problems.check(this::settings);
    problems.check(this::logFormat);
  }

  /**
   * Liberty's server script reads these two from the environment (HTTPS or HTTP on the port, the
   * log format) before the service starts; a value from anywhere else would reach only the
   * service's half, so it is refused.
   */
  private static void environmentOnly(String property, String value) {
    String env = System.getenv(Settings.envName(property));
    boolean isDefault =
        property.equals(LOG_FORMAT) ? value.trim().equals("simple") : value.isBlank();
    if (!value.trim().equals(env == null ? "" : env.trim()) && !(env == null && isDefault)) {
      throw Settings.invalid(
          property,
          value,
          "must be set as an environment variable: Liberty's HTTP listener and log read only"
              + " that");
    }
  }

  private static Optional<Path> path(Optional<String> text) {
    return text.map(String::trim).filter(s -> !s.isEmpty()).map(Path::of);
  }
}
