package dev.controlplane.auth;

import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * Which certificate authorities key servers' certificates may chain to: the JVM's default ones, and
 * those of {@code SERVICE_CONTROLPLANE_OIDC_CA_FILE} besides. Both go into one trust store, checked
 * by the JDK's own PKIX trust manager, host names verified as for any https URL.
 */
final class IssuerTrust {

  private IssuerTrust() {}

  /** The JVM's default context when there is nothing to add. */
  static SSLContext context(List<X509Certificate> extraCas) {
    try {
      if (extraCas.isEmpty()) {
        return SSLContext.getDefault();
      }
      TrustManagerFactory trust =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(trustStore(extraCas));
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, trust.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException | java.io.IOException e) {
      throw new IllegalStateException("cannot set up the TLS trust for issuers", e);
    }
  }

  /** The JDK's trusted CAs and {@code extraCas}, in one store. */
  static KeyStore trustStore(List<X509Certificate> extraCas)
      throws GeneralSecurityException, java.io.IOException {
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    int n = 0;
    for (X509Certificate ca : jdkCas()) {
      store.setCertificateEntry("jdk-" + n++, ca);
    }
    n = 0;
    for (X509Certificate ca : extraCas) {
      store.setCertificateEntry("oidc-ca-file-" + n++, ca);
    }
    return store;
  }

  static List<X509Certificate> jdkCas() throws GeneralSecurityException {
    TrustManagerFactory jdk =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    jdk.init((KeyStore) null);
    for (TrustManager manager : jdk.getTrustManagers()) {
      if (manager instanceof X509TrustManager x509) {
        return List.of(x509.getAcceptedIssuers());
      }
    }
    return List.of();
  }
}
