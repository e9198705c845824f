package dev.controlplane.tls;

import java.io.IOException;
import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.logging.Logger;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The open TLS connections of cluster traffic, each with the certificate chain its peer presented,
 * so that a member whose certificate is withdrawn (revoked, or its CA removed from the cluster CA
 * file) loses the connections it already holds, not only new ones: JGroups keeps one connection per
 * pair of members for as long as both run, and re-establishes it only when it breaks.
 *
 * <p>Every connection is recorded by the trust manager of the cluster's TLS context ({@link
 * #watching}) during its handshake, before the chain is checked, so a handshake checked against the
 * previous files is always found by the next {@link #closeWithdrawn}. That holds only for full
 * handshakes, the only ones the trust manager is asked about: so no cluster session is resumable.
 * Members keep their connections for hours, and a new connection costs one more signature.
 */
final class ClusterConnections {

  private static final Logger LOG = Logger.getLogger(ClusterConnections.class.getName());

  private final Map<Socket, X509Certificate[]> open = new ConcurrentHashMap<>();

  /** {@code checks}, recording each connection it is asked about with the peer's chain. */
  X509ExtendedTrustManager watching(X509ExtendedTrustManager checks) {
    return new Recording(checks);
  }

  /**
   * Closes every open connection whose peer's chain {@code withdrawn} refuses now (with the reason
   * why). Connections closed meanwhile are forgotten.
   */
  void closeWithdrawn(Function<X509Certificate[], Optional<String>> withdrawn) {
    for (var entry : open.entrySet()) {
      Socket socket = entry.getKey();
      if (socket.isClosed()) {
        open.remove(socket);
        continue;
      }
      Optional<String> why = withdrawn.apply(entry.getValue());
      if (why.isPresent()) {
        open.remove(socket);
        closeAside(socket);
        LOG.warning(
            "closed the cluster connection with "
                + socket.getRemoteSocketAddress()
                + " ("
                + TransportSecurity.describe(entry.getValue()[0])
                + "): "
                + why.get());
      }
    }
  }

  private void record(Socket socket, X509Certificate[] chain) {
    if (socket == null || chain == null || chain.length == 0) {
      return;
    }
    open.keySet().removeIf(Socket::isClosed);
    open.put(socket, chain.clone());
    if (socket instanceof SSLSocket tls) {
      SSLSession negotiating = tls.getHandshakeSession();
      if (negotiating != null) {
        // Not kept for resumption: a resumed handshake would skip this trust manager.
        negotiating.invalidate();
      }
    }
  }

  /**
   * Closing a TLS socket sends close_notify, which waits while a sender holds the connection, as it
   * does while the member at the other end does not read: not on the caller's thread, then.
   */
  private static void closeAside(Socket socket) {
    Thread closing =
        new Thread(
            () -> {
              try {
                socket.close();
              } catch (IOException e) {
                // Closed either way: the member's next connection meets the files in use now.
              }
            },
            "cluster-connection-close");
    closing.setDaemon(true);
    closing.start();
  }

  /** Records, then checks: a chain checked against the previous files is always recorded. */
  private final class Recording extends X509ExtendedTrustManager {
    private final X509ExtendedTrustManager checks;

    Recording(X509ExtendedTrustManager checks) {
      this.checks = checks;
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
        throws CertificateException {
      record(socket, chain);
      checks.checkClientTrusted(chain, authType, socket);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
        throws CertificateException {
      record(socket, chain);
      checks.checkServerTrusted(chain, authType, socket);
    }

    // JGroups' TCP transport connects with sockets; nothing of the cluster's runs on an engine.
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
      checks.checkClientTrusted(chain, authType, engine);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
      checks.checkServerTrusted(chain, authType, engine);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType)
        throws CertificateException {
      checks.checkClientTrusted(chain, authType);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType)
        throws CertificateException {
      checks.checkServerTrusted(chain, authType);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return checks.getAcceptedIssuers();
    }
  }
}
