package dev.controlplane.cli.client;

import dev.controlplane.cli.CliException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** TLS that trusts the certificates of a PEM CA file (the context's {@code ca-file}). */
public final class Tls {

  private Tls() {}

  /** An SSL context trusting exactly the CA certificates in {@code caFile}. */
  public static SSLContext trusting(Path caFile) {
    try (InputStream in = Files.newInputStream(caFile)) {
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      int i = 0;
      for (Certificate cert : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
        store.setCertificateEntry("ca-" + i++, cert);
      }
      if (i == 0) {
        throw unusableCaFile(caFile, "it holds no PEM certificate");
      }
      TrustManagerFactory trust =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(store);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, trust.getTrustManagers(), null);
      return context;
    } catch (IOException | GeneralSecurityException e) {
      throw unusableCaFile(caFile, e.getMessage());
    }
  }

  /**
   * A CA file that cannot be used (exit 3), over HTTP or gRPC alike, naming both places it can come
   * from: the file's name alone does not say which setting to fix.
   */
  static CliException unusableCaFile(Path caFile, String reason) {
    return CliException.config(
        "cannot use ca-file " + caFile + " (the context's ca-file, or CPCTL_CA_FILE): " + reason);
  }
}
