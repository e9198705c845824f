package dev.controlplane.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import javax.net.ssl.SSLContext;

/**
 * What a node needs to take part in leader election, taken from the service's configuration.
 *
 * @param transportTls TLS for the JGroups TCP connections between members (mutual: both sides
 *     present a certificate of the cluster CA); empty for plaintext
 */
public record ClusterSettings(
    String nodeId,
    String httpUrl,
    String grpcAddress,
    ClusterMembers members,
    Path dataDir,
    Duration failureTimeout,
    Optional<SSLContext> transportTls) {

  /** Plaintext cluster traffic. */
  public ClusterSettings(
      String nodeId,
      String httpUrl,
      String grpcAddress,
      ClusterMembers members,
      Path dataDir,
      Duration failureTimeout) {
    this(nodeId, httpUrl, grpcAddress, members, dataDir, failureTimeout, Optional.empty());
  }
}
