package dev.controlplane.auth;

import dev.controlplane.tls.PemFiles;
import dev.controlplane.tls.TlsSessions;
import io.grpc.util.AdvancedTlsX509TrustManager;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * Which certificate authorities key servers' certificates may chain to: the JVM's default ones, and
 * those of {@code SERVICE_CONTROLPLANE_OIDC_CA_FILE} besides, checked by the JDK's PKIX trust
 * manager with the URL's host name verified. The file is compared with what is in use before each
 * key fetch ({@link #refresh}), so that an IdP's CA is replaced without a restart, as the other CA
 * files are; a file that has become unusable is logged and the CAs in use stay.
 */
final class IssuerTrust {

  private static final Logger LOG = Logger.getLogger(IssuerTrust.class.getName());
  private static final String SETTING = "SERVICE_CONTROLPLANE_OIDC_CA_FILE";

  private final Optional<Path> file;
  private final SSLContext context;
  private final AdvancedTlsX509TrustManager manager;
  private final List<X509Certificate> jdkCas;
  private byte[] inUse = new byte[0];
  private byte[] refused = new byte[0];

  private IssuerTrust(
      Optional<Path> file,
      SSLContext context,
      AdvancedTlsX509TrustManager manager,
      List<X509Certificate> jdkCas) {
    this.file = file;
    this.context = context;
    this.manager = manager;
    this.jdkCas = jdkCas;
  }

  /** The JVM's default trust, nothing added and nothing to reload. */
  static IssuerTrust jdkOnly() {
    try {
      return new IssuerTrust(Optional.empty(), SSLContext.getDefault(), null, List.of());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot set up the TLS trust for issuers", e);
    }
  }

  /**
   * The JDK's CAs and those of {@code caFile}, read now; an unusable file is an {@link
   * IllegalArgumentException} naming the setting (the start checks it before this).
   */
  static IssuerTrust withCaFile(Path caFile) {
    try {
      AdvancedTlsX509TrustManager manager =
          AdvancedTlsX509TrustManager.newBuilder()
              .setVerification(
                  AdvancedTlsX509TrustManager.Verification.CERTIFICATE_AND_HOST_NAME_VERIFICATION)
              .build();
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, new TrustManager[] {manager}, null);
      IssuerTrust trust = new IssuerTrust(Optional.of(caFile), context, manager, jdkCas());
      Optional<String> problem = trust.load(true);
      if (problem.isPresent()) {
        throw new IllegalArgumentException(SETTING + ": " + problem.get());
      }
      return trust;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot set up the TLS trust for issuers", e);
    }
  }

  static IssuerTrust of(Optional<Path> caFile) {
    return caFile.map(IssuerTrust::withCaFile).orElseGet(IssuerTrust::jdkOnly);
  }

  /** The client context key fetches connect with; its trust follows {@link #refresh}. */
  SSLContext context() {
    return context;
  }

  /** Applies the CA file when its content differs from what is in use. */
  void refresh() {
    if (file.isPresent()) {
      load(false);
    }
  }

  /** Empty when the file's content is in use (now or already); else why it is not. */
  private synchronized Optional<String> load(boolean first) {
    byte[] digest;
    try {
      digest = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file.get()));
    } catch (IOException e) {
      return refuse(new byte[] {0}, first, file.get() + " cannot be read: " + e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
    if (Arrays.equals(digest, inUse)) {
      refused = new byte[0];
      return Optional.empty();
    }
    if (Arrays.equals(digest, refused)) {
      return Optional.of("unchanged since it was refused");
    }
    X509Certificate[] cas;
    try {
      cas = PemFiles.certificates(file.get());
      List<X509Certificate> all = new ArrayList<>(jdkCas);
      all.addAll(List.of(cas));
      manager.updateTrustCredentials(all.toArray(X509Certificate[]::new));
    } catch (PemFiles.TlsFileException | IOException | GeneralSecurityException e) {
      return refuse(digest, first, e.getMessage());
    }
    inUse = digest;
    refused = new byte[0];
    // A key server the new file no longer trusts must not be reached on a resumed session.
    TlsSessions.forgetAll(context);
    LOG.info(
        "issuer CA file "
            + (first ? "loaded" : "reloaded")
            + " ("
            + SETTING
            + "): "
            + cas.length
            + " certificate(s), the first '"
            + cas[0].getSubjectX500Principal().getName()
            + "' valid until "
            + cas[0].getNotAfter().toInstant());
    return Optional.empty();
  }

  /** Logs a refused file once per content, keeping the CAs in use. */
  private Optional<String> refuse(byte[] digest, boolean first, String why) {
    if (!first && !Arrays.equals(digest, refused)) {
      LOG.warning(
          "issuer CA file not reloaded ("
              + SETTING
              + "), the CAs in use stay: "
              + why
              + "; key fetches check it again until it is fixed");
    }
    refused = digest;
    return Optional.of(why);
  }

  /** Every CA a key server's certificate may chain to now. */
  List<X509Certificate> acceptedIssuers() {
    if (manager == null) {
      try {
        return jdkCas();
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException(e);
      }
    }
    return List.of(manager.getAcceptedIssuers());
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
