package dev.controlplane.cli.client;

import dev.controlplane.cli.CliException;
import java.util.Optional;

/**
 * Where a gRPC node listens, and whether it speaks TLS. A configured address says so by its scheme
 * ({@code https://host:port}, or a bare {@code host:port} for plaintext). A leader named in an
 * {@code x-leader} trailer is always bare (the node's advertised {@code host:port}, or only its
 * node id when its address is unknown), so it takes the scheme of the node that named it: the nodes
 * of one cluster all serve TLS or none does.
 */
record GrpcAddress(String host, int port, boolean tls) {

  /** An address of the context ({@code --grpc-server}, {@code CPCTL_GRPC_SERVER}, the context). */
  static GrpcAddress configured(String address) {
    boolean tls = address.startsWith("https://");
    return hostPort(address.replaceFirst("^https?://", ""), tls)
        .orElseThrow(() -> CliException.config("gRPC server " + address + " must be host:port"));
  }

  /** The leader a node named in its {@code x-leader} trailer; empty when it is no host:port. */
  Optional<GrpcAddress> leader(String trailer) {
    return hostPort(trailer, tls);
  }

  private static Optional<GrpcAddress> hostPort(String text, boolean tls) {
    int colon = text.lastIndexOf(':');
    if (colon < 1 || text.contains("/") || text.chars().anyMatch(Character::isWhitespace)) {
      return Optional.empty();
    }
    int port;
    try {
      port = Integer.parseInt(text.substring(colon + 1));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
    if (port < 1 || port > 65535) {
      return Optional.empty();
    }
    return Optional.of(new GrpcAddress(text.substring(0, colon), port, tls));
  }

  /** {@code host:port}, without the scheme. */
  String hostPort() {
    return host + ":" + port;
  }

  /** As it would be configured: {@code https://host:port} or {@code host:port}. */
  @Override
  public String toString() {
    return (tls ? "https://" : "") + hostPort();
  }
}
