package dev.controlplane.config;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * What the gRPC listener lets its clients hold: calls, queued tasks, connections and silent
 * connections (docs/configuration.md). Its port and bind host are the node's ({@link
 * ControlPlaneConfig}).
 */
@ApplicationScoped
public class GrpcListenerConfig {

  private static final Duration MIN_KEEPALIVE_TIME = Duration.ofSeconds(10);

  @Inject
  @ConfigProperty(
      name = "service.controlplane.grpc.max.calls.per.connection",
      defaultValue = "1000")
  String maxCallsPerConnection;

  @Inject
  @ConfigProperty(name = "service.controlplane.grpc.queue.limit", defaultValue = "10000")
  String queueLimit;

  @Inject
  @ConfigProperty(name = "service.controlplane.grpc.max.connections", defaultValue = "10000")
  String maxConnections;

  @Inject
  @ConfigProperty(
      name = "service.controlplane.grpc.max.connections.per.client",
      defaultValue = "1000")
  String maxConnectionsPerClient;

  @Inject
  @ConfigProperty(name = "service.controlplane.grpc.keepalive.time", defaultValue = "30s")
  String keepaliveTime;

  @Inject
  @ConfigProperty(name = "service.controlplane.grpc.keepalive.timeout", defaultValue = "10s")
  String keepaliveTimeout;

  /**
   * How many calls one gRPC connection may have open at once (HTTP/2's MAX_CONCURRENT_STREAMS):
   * each open watch holds buffers on the node, and one connection must not open them without end.
   */
  public int maxCallsPerConnection() {
    return count("service.controlplane.grpc.max.calls.per.connection", maxCallsPerConnection);
  }

  /** How many tasks of gRPC calls may wait for the node's RPC threads before calls are refused. */
  public int queueLimit() {
    return count("service.controlplane.grpc.queue.limit", queueLimit);
  }

  /** How many gRPC connections may be open on the node at once. */
  public int maxConnections() {
    return count("service.controlplane.grpc.max.connections", maxConnections);
  }

  /** How many gRPC connections one client address may have open on the node at once. */
  public int maxConnectionsPerClient() {
    return count("service.controlplane.grpc.max.connections.per.client", maxConnectionsPerClient);
  }

  /** How long a gRPC connection may stay silent before the node pings its client. */
  public Duration keepaliveTime() {
    Duration d = Settings.duration("service.controlplane.grpc.keepalive.time", keepaliveTime);
    if (d.compareTo(MIN_KEEPALIVE_TIME) < 0) {
      // grpc-java would raise it to 10 s without a word.
      throw Settings.invalid(
          "service.controlplane.grpc.keepalive.time",
          keepaliveTime,
          "is less than 10s, the least gRPC allows");
    }
    return d;
  }

  /** How long the node waits for a ping's answer before it closes the connection. */
  public Duration keepaliveTimeout() {
    return Settings.positiveDuration(
        "service.controlplane.grpc.keepalive.timeout", keepaliveTimeout);
  }

  /** Parses every setting once; each invalid one goes to {@code problems}. */
  public void validate(SettingProblems problems) {
    problems.check(this::keepaliveTime);
    problems.check(this::keepaliveTimeout);
    problems.check(this::maxCallsPerConnection);
    problems.check(this::queueLimit);
    problems.check(this::maxConnections);
    problems.check(this::maxConnectionsPerClient);
  }

  private static int count(String name, String text) {
    return (int) Settings.integer(name, text, 1, 1_000_000);
  }
}
