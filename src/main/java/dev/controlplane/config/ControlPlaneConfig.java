package dev.controlplane.config;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Every setting of the service. Property {@code service.controlplane.grpc.port} is environment
 * variable {@code SERVICE_CONTROLPLANE_GRPC_PORT} (MicroProfile Config's mapping). Durations use
 * the resource grammar ({@code 500ms}, {@code 5s}, {@code 24h}).
 */
@ApplicationScoped
public class ControlPlaneConfig {

  @Inject
  @ConfigProperty(name = "service.controlplane.node.id", defaultValue = "cp1")
  String nodeId;

  @Inject
  @ConfigProperty(name = "service.controlplane.bind.host", defaultValue = "127.0.0.1")
  String bindHost;

  @Inject
  @ConfigProperty(name = "service.controlplane.grpc.port", defaultValue = "9090")
  String grpcPort;

  @Inject
  @ConfigProperty(name = "service.controlplane.http.port", defaultValue = "9080")
  String httpPort;

  @Inject
  @ConfigProperty(name = "service.controlplane.advertised.http")
  Optional<String> advertisedHttp;

  @Inject
  @ConfigProperty(name = "service.controlplane.advertised.grpc")
  Optional<String> advertisedGrpc;

  @Inject
  @ConfigProperty(
      name = "service.controlplane.db.url",
      defaultValue = "jdbc:postgresql://127.0.0.1:5432/controlplane")
  String dbUrl;

  @Inject
  @ConfigProperty(name = "service.controlplane.db.user", defaultValue = "controlplane")
  String dbUser;

  @Inject
  @ConfigProperty(name = "service.controlplane.db.password", defaultValue = "controlplane")
  String dbPassword;

  /** Read by Liberty's server.xml; checked here, since Liberty replaces a bad value silently. */
  @Inject
  @ConfigProperty(name = "service.controlplane.db.pool.size", defaultValue = "20")
  String dbPoolSize;

  @Inject
  @ConfigProperty(name = "service.controlplane.db.migrate", defaultValue = "validate")
  String dbMigrate;

  @Inject
  @ConfigProperty(name = "service.controlplane.broker.token")
  Optional<String> brokerToken;

  @Inject
  @ConfigProperty(name = "service.controlplane.operator.token")
  Optional<String> operatorToken;

  @Inject
  @ConfigProperty(name = "service.controlplane.heartbeat.interval", defaultValue = "5s")
  String heartbeatInterval;

  @Inject
  @ConfigProperty(name = "service.controlplane.watch.progress.interval", defaultValue = "10s")
  String watchProgressInterval;

  @Inject
  @ConfigProperty(name = "service.controlplane.watch.stall.timeout", defaultValue = "30s")
  String watchStallTimeout;

  @Inject
  @ConfigProperty(name = "service.controlplane.watch.window", defaultValue = "10000")
  String watchWindow;

  @Inject
  @ConfigProperty(name = "service.controlplane.retention.period", defaultValue = "24h")
  String retentionPeriod;

  @Inject
  @ConfigProperty(name = "service.controlplane.retention.min.versions", defaultValue = "100000")
  String retentionMinVersions;

  @Inject
  @ConfigProperty(name = "service.controlplane.retention.check.interval", defaultValue = "1m")
  String retentionCheckInterval;

  @Inject
  @ConfigProperty(name = "service.controlplane.audit.retention", defaultValue = "90d")
  String auditRetention;

  @Inject
  @ConfigProperty(name = "service.controlplane.stream.delete.grace", defaultValue = "24h")
  String streamDeleteGrace;

  @Inject
  @ConfigProperty(name = "service.controlplane.stream.purge.interval", defaultValue = "1m")
  String streamPurgeInterval;

  @Inject
  @ConfigProperty(name = "service.controlplane.http.max.body", defaultValue = "1048576")
  String httpMaxBody;

  @Inject
  @ConfigProperty(name = "service.controlplane.snapshot.chunk.bytes", defaultValue = "1048576")
  String snapshotChunkBytes;

  @Inject
  @ConfigProperty(name = "service.controlplane.snapshot.max.concurrent", defaultValue = "8")
  String snapshotMaxConcurrent;

  @Inject
  @ConfigProperty(name = "service.controlplane.snapshot.keep.encoded", defaultValue = "true")
  String snapshotKeepEncoded;

  @Inject
  @ConfigProperty(name = "service.controlplane.write.queue.limit", defaultValue = "10000")
  String writeQueueLimit;

  public String nodeId() {
    return nodeId;
  }

  public String bindHost() {
    return bindHost;
  }

  /**
   * The bind host is an address of this machine, or a wildcard. Checked before anything binds:
   * otherwise the gRPC listener fails with "cannot assign requested address", which named its port,
   * while Liberty's HTTP listener only logs it and retries.
   */
  public void requireLocalBindHost() {
    String host = bindHost.trim();
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    if (host.equals("*")) {
      return;
    }
    java.net.InetAddress[] addresses;
    try {
      addresses = java.net.InetAddress.getAllByName(host);
    } catch (java.net.UnknownHostException e) {
      throw Settings.invalid("service.controlplane.bind.host", bindHost, "does not resolve");
    }
    for (java.net.InetAddress address : addresses) {
      try {
        if (address.isAnyLocalAddress()
            || address.isLoopbackAddress()
            || java.net.NetworkInterface.getByInetAddress(address) != null) {
          return;
        }
      } catch (java.net.SocketException e) {
        // The interfaces cannot be listed: the bind itself will say what is wrong.
        return;
      }
    }
    throw Settings.invalid(
        "service.controlplane.bind.host",
        bindHost,
        "is not an address of this machine"
            + (host.equals(addresses[0].getHostAddress())
                ? ""
                : " (it resolves to " + addresses[0].getHostAddress() + ")")
            + "; use one of its addresses, or 0.0.0.0 for all");
  }

  public int grpcPort() {
    return Settings.port("service.controlplane.grpc.port", grpcPort);
  }

  public int httpPort() {
    return Settings.port("service.controlplane.http.port", httpPort);
  }

  /**
   * Where clients reach this node's HTTP API, as a base URL; defaults to the bind host and port (a
   * wildcard bind host advertises 127.0.0.1, so set it when clients come from other machines). The
   * scheme is https when the port serves TLS, which the environment variable alone decides
   * (TlsConfig: Liberty reads it from there).
   */
  public String advertisedHttp() {
    String tlsCert = System.getenv("SERVICE_CONTROLPLANE_TLS_CERT_PATH");
    String scheme = tlsCert == null || tlsCert.isBlank() ? "http" : "https";
    return advertisedHttp
        .filter(s -> !s.isBlank())
        .orElse(scheme + "://" + advertisedHost() + ":" + httpPort());
  }

  /** Where brokers reach this node's gRPC API ({@code host:port}). */
  public String advertisedGrpc() {
    return advertisedGrpc.filter(s -> !s.isBlank()).orElse(advertisedHost() + ":" + grpcPort());
  }

  /** The host this node reaches its own listeners on: the bind host, loopback for a wildcard. */
  public String advertisedHost() {
    String host = bindHost.trim();
    if (host.equals("0.0.0.0") || host.equals("*") || host.equals("::") || host.equals("[::]")) {
      return "127.0.0.1";
    }
    return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
  }

  public String dbUrl() {
    return dbUrl;
  }

  public String dbUser() {
    return dbUser;
  }

  public String dbPassword() {
    return dbPassword;
  }

  public MigrateMode dbMigrate() {
    return MigrateMode.parse(dbMigrate);
  }

  public Optional<String> brokerToken() {
    return brokerToken.filter(s -> !s.isBlank());
  }

  public Optional<String> operatorToken() {
    return operatorToken.filter(s -> !s.isBlank());
  }

  /**
   * Between 100 ms and 1 h: brokers are sent it in milliseconds as a 32-bit integer, and failure
   * detection checks every fifth of it, at least every 50 ms, so a shorter one could not be kept.
   */
  public Duration heartbeatInterval() {
    Duration d = duration("service.controlplane.heartbeat.interval", heartbeatInterval);
    if (d.compareTo(Duration.ofMillis(100)) < 0 || d.compareTo(Duration.ofHours(1)) > 0) {
      throw Settings.invalid(
          "service.controlplane.heartbeat.interval",
          heartbeatInterval,
          "is not between 100ms and 1h");
    }
    return d;
  }

  public Duration watchProgressInterval() {
    return duration("service.controlplane.watch.progress.interval", watchProgressInterval);
  }

  public Duration watchStallTimeout() {
    return duration("service.controlplane.watch.stall.timeout", watchStallTimeout);
  }

  public int watchWindow() {
    return (int)
        Settings.integer("service.controlplane.watch.window", watchWindow, 1, Integer.MAX_VALUE);
  }

  public Duration retentionPeriod() {
    return duration("service.controlplane.retention.period", retentionPeriod);
  }

  public long retentionMinVersions() {
    return Settings.integer(
        "service.controlplane.retention.min.versions", retentionMinVersions, 1, Long.MAX_VALUE);
  }

  public Duration retentionCheckInterval() {
    return duration("service.controlplane.retention.check.interval", retentionCheckInterval);
  }

  /** How long audit records are kept; the leader deletes older ones. */
  public Duration auditRetention() {
    return Settings.positiveDuration("service.controlplane.audit.retention", auditRetention);
  }

  public Duration streamDeleteGrace() {
    return duration("service.controlplane.stream.delete.grace", streamDeleteGrace);
  }

  public Duration streamPurgeInterval() {
    return duration("service.controlplane.stream.purge.interval", streamPurgeInterval);
  }

  public int httpMaxBody() {
    return (int)
        Settings.integer("service.controlplane.http.max.body", httpMaxBody, 1, Integer.MAX_VALUE);
  }

  public int snapshotChunkBytes() {
    return (int)
        Settings.integer(
            "service.controlplane.snapshot.chunk.bytes",
            snapshotChunkBytes,
            1024,
            Integer.MAX_VALUE);
  }

  public int snapshotMaxConcurrent() {
    return (int)
        Settings.integer(
            "service.controlplane.snapshot.max.concurrent", snapshotMaxConcurrent, 1, 100_000);
  }

  /** How many writes may wait for the leader's pipeline before more are refused. */
  public int writeQueueLimit() {
    return (int)
        Settings.integer("service.controlplane.write.queue.limit", writeQueueLimit, 1, 1_000_000);
  }

  /** Whether each resource's wire form is kept for snapshots (memory for speed). */
  public boolean snapshotKeepEncoded() {
    return Settings.bool("service.controlplane.snapshot.keep.encoded", snapshotKeepEncoded);
  }

  /**
   * The size of each connection pool: 1 to 10,000. Liberty itself would take a value that does not
   * parse as its own default of 50, with only a warning, and 0 as no limit at all.
   */
  public int dbPoolSize() {
    return (int) Settings.integer("service.controlplane.db.pool.size", dbPoolSize, 1, 10_000);
  }

  /** The HTTP and gRPC listeners bind the same host: one port each. */
  void requirePortsApart() {
    if (httpPort() == grpcPort()) {
      throw Settings.invalid(
          "service.controlplane.grpc.port",
          String.valueOf(grpcPort()),
          "is also SERVICE_CONTROLPLANE_HTTP_PORT: the two listeners need ports of their own");
    }
  }

  /**
   * Parses every setting once, so a bad value stops the start instead of a later task; each invalid
   * one goes to {@code problems}.
   */
  public void validate(SettingProblems problems) {
    problems.check(this::grpcPort);
    problems.check(this::httpPort);
    problems.check(this::requirePortsApart);
    problems.check(this::requireLocalBindHost);
    problems.check(this::dbPoolSize);
    problems.check(this::dbMigrate);
    problems.check(this::heartbeatInterval);
    problems.check(this::watchProgressInterval);
    problems.check(this::watchStallTimeout);
    problems.check(this::retentionPeriod);
    problems.check(this::retentionCheckInterval);
    problems.check(this::auditRetention);
    problems.check(this::streamDeleteGrace);
    problems.check(this::streamPurgeInterval);
    problems.check(this::watchWindow);
    problems.check(this::retentionMinVersions);
    problems.check(this::httpMaxBody);
    problems.check(this::snapshotChunkBytes);
    problems.check(this::snapshotMaxConcurrent);
    problems.check(this::snapshotKeepEncoded);
    problems.check(this::writeQueueLimit);
  }

  /**
   * Parses a duration setting, naming the setting when it is malformed (shared with AuthConfig).
   */
  static Duration duration(String name, String text) {
    return Settings.duration(name, text);
  }

  /** What the service does with the schema at start. */
  public enum MigrateMode {
    MIGRATE,
    VALIDATE,
    NONE;

    static MigrateMode parse(String text) {
      return switch (text.trim().toLowerCase(java.util.Locale.ROOT)) {
        case "migrate" -> MIGRATE;
        case "validate" -> VALIDATE;
        case "none" -> NONE;
        default ->
            throw Settings.invalid(
                "service.controlplane.db.migrate", text, "is not one of migrate, validate, none");
      };
    }
  }
}
