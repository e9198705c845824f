package dev.controlplane.tls;

import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Trusts a server only if it presents the certificate this node currently serves: for the node's
 * check that its HTTPS port is its own, where the port may be reached by an address the certificate
 * does not name. Not for any other connection.
 */
final class OwnCertificate extends X509ExtendedTrustManager {

  private final X509ExtendedKeyManager keys;

  OwnCertificate(X509ExtendedKeyManager keys) {
    this.keys = keys;
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    String alias = keys.chooseServerAlias(chain[0].getPublicKey().getAlgorithm(), null, null);
    X509Certificate[] own = alias == null ? null : keys.getCertificateChain(alias);
    if (own == null || own.length == 0 || !own[0].equals(chain[0])) {
      throw new CertificateException("the port does not present this node's certificate");
    }
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    checkServerTrusted(chain, authType);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    checkServerTrusted(chain, authType);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    throw new CertificateException("a client-side trust manager only");
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    checkClientTrusted(chain, authType);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    checkClientTrusted(chain, authType);
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return new X509Certificate[0];
  }
}
