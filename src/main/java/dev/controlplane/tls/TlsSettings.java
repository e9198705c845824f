package dev.controlplane.tls;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Transport security as configured: the server's PEM certificate chain and key (absent: plaintext),
 * how often the files are checked for a rotation, and mutual TLS for brokers.
 *
 * @param verifyPeer with mTLS, whether broker RPCs require a client certificate (true) or also
 *     accept the shared broker token from a client without one (false, for migrating brokers)
 * @param allowedCommonNames broker certificate common names allowed; empty allows every name the CA
 *     signed. An entry ending in {@code *} matches names that start with the rest.
 * @param clusterTls whether JGroups traffic between members uses TLS, with the node's certificate
 *     on both ends, verified against {@code clusterCaPath}
 * @param crlPath with mTLS, PEM revocation lists of the broker CA: listed client certificates are
 *     refused
 * @param clusterCrlPath with cluster TLS, PEM revocation lists of the cluster CA: listed member
 *     certificates are refused on either end of a connection
 */
public record TlsSettings(
    Optional<Path> certPath,
    Optional<Path> keyPath,
    Duration reloadInterval,
    boolean mtlsEnabled,
    Optional<Path> caPath,
    boolean verifyPeer,
    List<String> allowedCommonNames,
    boolean clusterTls,
    Optional<Path> clusterCaPath,
    Optional<Path> crlPath,
    Optional<Path> clusterCrlPath) {

  public boolean enabled() {
    return certPath.isPresent();
  }

  /** mTLS with certificates required: the shared broker token is not accepted. */
  public boolean certificateRequired() {
    return mtlsEnabled && verifyPeer;
  }

  public static TlsSettings plaintext() {
    return new TlsSettings(
        Optional.empty(),
        Optional.empty(),
        Duration.ofSeconds(10),
        false,
        Optional.empty(),
        true,
        List.of(),
        false,
        Optional.empty(),
        Optional.empty(),
        Optional.empty());
  }
}
