package dev.controlplane.tls;

import dev.controlplane.tls.PemFiles.Identity;
import dev.controlplane.tls.PemFiles.TlsFileException;
import io.grpc.util.AdvancedTlsX509KeyManager;
import io.grpc.util.AdvancedTlsX509TrustManager;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * The node's TLS identity and, with mutual TLS, the CA brokers' certificates must chain to. Both
 * are read from PEM files at start (a bad file stops the start) and re-read whenever their content
 * changes: the gRPC and bootstrap listeners use the reloading key and trust managers of grpc-java,
 * and the HTTP listener's PKCS12 keystore is rewritten for Liberty to reload. A rotation that
 * leaves the files unusable (a key that does not match its certificate) is logged and the previous
 * identity stays in use until the files are fixed.
 */
public final class TransportSecurity implements AutoCloseable {

  /** TLS 1.3 first; TLS 1.2 for clients that have no 1.3 yet. Nothing older. */
  public static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

  private static final Logger LOG = Logger.getLogger(TransportSecurity.class.getName());

  /** Certificates whose check outcome is kept at once (brokers, not requests, are counted). */
  private static final int CHECKED_LIMIT = 10_000;

  private final TlsSettings settings;
  private final AdvancedTlsX509KeyManager keys = new AdvancedTlsX509KeyManager();
  private final TrustFile brokerCa;
  private final TrustFile clusterCa;
  private final ClusterConnections clusterConnections = new ClusterConnections();
  private final Optional<LibertyKeystore> liberty;
  private final BrokerCertificates brokers;
  private ScheduledExecutorService poller;
  private SSLContext cluster;
  private byte[] identityDigest = new byte[0];

  private TransportSecurity(TlsSettings settings, Optional<LibertyKeystore> liberty)
      throws GeneralSecurityException {
    this.settings = settings;
    this.liberty = liberty;
    this.brokerCa =
        settings.mtlsEnabled()
            ? new TrustFile(
                "mTLS client CA",
                settings.caPath().orElseThrow(),
                settings.crlPath(),
                new RevocationList(
                    "SERVICE_CONTROLPLANE_MTLS_CRL_PATH",
                    "SERVICE_CONTROLPLANE_MTLS_CA_CERT_PATH",
                    "client"))
            : null;
    this.clusterCa =
        settings.clusterTls()
            ? new TrustFile(
                "cluster CA",
                settings.clusterCaPath().orElseThrow(),
                settings.clusterCrlPath(),
                new RevocationList(
                    "SERVICE_CONTROLPLANE_CLUSTER_CRL_PATH",
                    "SERVICE_CONTROLPLANE_CLUSTER_CA_CERT_PATH",
                    "cluster member"))
            : null;
    this.brokers =
        new BrokerCertificates(
            settings, brokerCa == null ? chain -> Optional.empty() : brokerCa::withdrawn);
  }

  /**
   * Reads the files (throwing, with the file named, when one is unusable) and starts watching them.
   * Plaintext settings give an instance that does nothing.
   */
  public static TransportSecurity start(TlsSettings settings)
      throws TlsFileException, GeneralSecurityException {
    return start(settings, LibertyKeystore.fromEnvironment());
  }

  static TransportSecurity start(TlsSettings settings, Optional<LibertyKeystore> liberty)
      throws TlsFileException, GeneralSecurityException {
    TransportSecurity security = new TransportSecurity(settings, liberty);
    if (settings.enabled()) {
      security.reload(true);
      security.poll();
    }
    return security;
  }

  /**
   * {@link #start} for the service's start: an unusable file becomes a settings failure naming the
   * variable that points at it.
   */
  public static TransportSecurity open(TlsSettings settings) {
    try {
      return start(settings);
    } catch (TlsFileException e) {
      throw new dev.controlplane.config.InvalidSettingException(
          variableOf(settings, e.file()) + ": " + e.getMessage());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot set up TLS: " + e.getMessage(), e);
    }
  }

  private static String variableOf(TlsSettings settings, Path file) {
    if (settings.keyPath().filter(file::equals).isPresent()) {
      return "SERVICE_CONTROLPLANE_TLS_KEY_PATH";
    }
    if (settings.caPath().filter(file::equals).isPresent()) {
      return "SERVICE_CONTROLPLANE_MTLS_CA_CERT_PATH";
    }
    if (settings.crlPath().filter(file::equals).isPresent()) {
      return "SERVICE_CONTROLPLANE_MTLS_CRL_PATH";
    }
    if (settings.clusterCaPath().filter(file::equals).isPresent()) {
      return "SERVICE_CONTROLPLANE_CLUSTER_CA_CERT_PATH";
    }
    if (settings.clusterCrlPath().filter(file::equals).isPresent()) {
      return "SERVICE_CONTROLPLANE_CLUSTER_CRL_PATH";
    }
    return "SERVICE_CONTROLPLANE_TLS_CERT_PATH";
  }

  /**
   * A client context for the node's check of its own HTTPS port: it trusts exactly the certificate
   * this node serves (whatever names it carries, so no host name check), nothing else.
   */
  public Optional<SSLContext> selfCheckContext() {
    if (!enabled()) {
      return Optional.empty();
    }
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, new TrustManager[] {new OwnCertificate(keys)}, null);
      return Optional.of(context);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot set up the HTTPS self-check", e);
    }
  }

  /** The bootstrap listener's TLS context, when TLS is on. */
  public Optional<SSLContext> bootstrapContext() {
    if (!enabled()) {
      return Optional.empty();
    }
    try {
      return Optional.of(jdkServerContext());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot set up TLS for the bootstrap listener", e);
    }
  }

  public boolean enabled() {
    return settings.enabled();
  }

  public TlsSettings settings() {
    return settings;
  }

  public X509ExtendedKeyManager keyManager() {
    return keys;
  }

  /** The broker CA's trust manager, present with mutual TLS. */
  public Optional<X509ExtendedTrustManager> trustManager() {
    return Optional.ofNullable(brokerCa).map(TrustFile::manager);
  }

  /**
   * TLS for JGroups between cluster members, when configured: this node's identity on both ends of
   * a connection, the peer's verified against the cluster CA, and each connection kept track of
   * ({@link ClusterConnections}) so that a member whose certificate is withdrawn loses it.
   */
  public synchronized Optional<SSLContext> clusterContext() {
    if (clusterCa == null) {
      return Optional.empty();
    }
    if (cluster == null) {
      try {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(
            new KeyManager[] {keys},
            new TrustManager[] {clusterConnections.watching(clusterCa.manager())},
            null);
        cluster = context;
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("cannot set up TLS for cluster traffic", e);
      }
    }
    return Optional.of(cluster);
  }

  public BrokerCertificates brokers() {
    return brokers;
  }

  /** A JDK context serving this identity (the bootstrap listener); no client certificates. */
  public SSLContext jdkServerContext() throws GeneralSecurityException {
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(new KeyManager[] {keys}, new TrustManager[0], null);
    return context;
  }

  private void poll() {
    long every = settings.reloadInterval().toMillis();
    poller =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "tls-reload");
              t.setDaemon(true);
              return t;
            });
    poller.scheduleWithFixedDelay(this::reloadQuietly, every, every, TimeUnit.MILLISECONDS);
  }

  private void reloadQuietly() {
    try {
      reload(false);
    } catch (TlsFileException | GeneralSecurityException | RuntimeException e) {
      LOG.warning("TLS files not reloaded, the previous ones stay in use: " + e.getMessage());
    }
  }

  /** Applies the files when their content differs from what is in use. */
  synchronized void reload(boolean first) throws TlsFileException, GeneralSecurityException {
    Path cert = settings.certPath().orElseThrow();
    Path key = settings.keyPath().orElseThrow();
    byte[] digest = digest(cert, key);
    if (!Arrays.equals(digest, identityDigest)) {
      Identity identity = PemFiles.identity(cert, key);
      keys.updateIdentityCredentials(identity.chain(), identity.key());
      writeLibertyKeystore(identity, first);
      identityDigest = digest;
      LOG.info(
          (first ? "TLS certificate loaded: " : "TLS certificate reloaded: ")
              + describe(identity.leaf()));
    }
    if (brokerCa != null) {
      brokerCa.reload(first);
    }
    if (clusterCa != null) {
      clusterCa.reload(first);
      // At every check, not only after a change: a certificate can also expire while connected.
      clusterConnections.closeWithdrawn(clusterCa::withdrawn);
    }
  }

  /**
   * A PEM CA file behind a reloading trust manager (certificate chain checks, no host names), and
   * optionally the CRLs of those CAs, reloaded with it.
   */
  private static final class TrustFile {
    private final String label;
    private final Path file;
    private final Optional<Path> crlFile;
    private final RevocationList revocations;
    private final AdvancedTlsX509TrustManager manager;
    private byte[] caDigest = new byte[0];
    private byte[] crlDigest = new byte[0];

    /** The CAs of the file as read last, for checks outside a handshake. */
    private volatile X509TrustManager current;

    /**
     * Leaf certificates checked against the files in use, with the outcome; a new map whenever the
     * files change.
     */
    private volatile Map<X509Certificate, Checked> checked = new ConcurrentHashMap<>();

    /**
     * An outcome of {@link #withdrawn}: a refusal stands until the files change, an acceptance
     * until the first certificate of the chain expires.
     */
    private record Checked(Optional<String> outcome, long validUntilMillis) {}

    TrustFile(String label, Path file, Optional<Path> crlFile, RevocationList revocations)
        throws GeneralSecurityException {
      this.label = label;
      this.file = file;
      this.crlFile = crlFile;
      this.revocations = revocations;
      var builder =
          AdvancedTlsX509TrustManager.newBuilder()
              .setVerification(
                  AdvancedTlsX509TrustManager.Verification.CERTIFICATE_ONLY_VERIFICATION);
      if (crlFile.isPresent()) {
        builder.setSslSocketAndEnginePeerVerifier(revocations);
      }
      this.manager = builder.build();
    }

    X509ExtendedTrustManager manager() {
      return manager;
    }

    /** Applies the files when their content changed. */
    void reload(boolean first) throws TlsFileException, GeneralSecurityException {
      byte[] caNow = digest(file);
      byte[] crlNow = crlFile.isPresent() ? digest(crlFile.get()) : crlDigest;
      boolean caChanged = !Arrays.equals(caNow, caDigest);
      if (!caChanged && Arrays.equals(crlNow, crlDigest)) {
        return;
      }
      X509Certificate[] cas = PemFiles.certificates(file);
      // Both files are checked before either is used: a CRL that does not match the CAs keeps
      // the previous pair in use.
      var crls = crlFile.isPresent() ? revocations.read(crlFile.get(), cas) : null;
      if (caChanged) {
        try {
          manager.updateTrustCredentials(cas);
          current = pkix(cas);
        } catch (IOException e) {
          throw new TlsFileException(file, "cannot be used as a trust store", e);
        }
        LOG.info(label + (first ? " loaded: " : " reloaded: ") + describe(cas[0]));
      }
      if (crls != null) {
        revocations.use(crls);
        LOG.info(
            label + " revocation lists " + (first ? "loaded" : "reloaded") + ": " + crls.size());
      }
      caDigest = caNow;
      crlDigest = crlNow;
      checked = new ConcurrentHashMap<>();
    }

    /**
     * Why a chain that passed a handshake is not trusted by the files in use now (its CA left the
     * file, or a CRL lists it); empty when it still is. A TLS session resumed after the change, or
     * a connection opened before it, carries the chain of its first handshake, which the trust
     * manager is not asked about again.
     */
    Optional<String> withdrawn(X509Certificate[] chain) {
      Map<X509Certificate, Checked> outcomes = checked;
      Checked known = outcomes.get(chain[0]);
      if (known != null
          && (known.outcome().isPresent()
              || System.currentTimeMillis() <= known.validUntilMillis())) {
        return known.outcome();
      }
      Optional<String> outcome;
      try {
        current.checkClientTrusted(chain, chain[0].getPublicKey().getAlgorithm());
        revocations.check(chain);
        outcome = Optional.empty();
      } catch (java.security.cert.CertificateRevokedException e) {
        outcome = Optional.of("the certificate has been revoked");
      } catch (java.security.cert.CertificateException e) {
        outcome =
            Optional.of("it fails the check against the " + label + " file: " + e.getMessage());
        // Once per certificate and change of the files: the outcome is kept (revocations are
        // logged by the revocation list).
        LOG.warning(
            "refused a certificate accepted in an earlier handshake ("
                + describe(chain[0])
                + "): "
                + outcome.get());
      }
      if (outcomes.size() >= CHECKED_LIMIT) {
        outcomes.clear();
      }
      long validUntil = Long.MAX_VALUE;
      for (X509Certificate cert : chain) {
        validUntil = Math.min(validUntil, cert.getNotAfter().getTime());
      }
      outcomes.put(chain[0], new Checked(outcome, validUntil));
      return outcome;
    }

    private static X509TrustManager pkix(X509Certificate[] cas)
        throws GeneralSecurityException, IOException {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      for (int i = 0; i < cas.length; i++) {
        store.setCertificateEntry("ca-" + i, cas[i]);
      }
      TrustManagerFactory factory = TrustManagerFactory.getInstance("PKIX");
      factory.init(store);
      for (TrustManager manager : factory.getTrustManagers()) {
        if (manager instanceof X509TrustManager x509) {
          return x509;
        }
      }
      throw new GeneralSecurityException("no X.509 trust manager");
    }
  }

  private void writeLibertyKeystore(Identity identity, boolean first)
      throws GeneralSecurityException {
    if (liberty.isEmpty()) {
      if (first) {
        LOG.warning(
            "no Liberty keystore in the environment (server.env): the HTTP listener cannot serve TLS");
      }
      return;
    }
    try {
      liberty.get().write(identity);
    } catch (IOException e) {
      throw new GeneralSecurityException(
          "cannot write the HTTP listener's keystore " + liberty.get().file() + ": " + e, e);
    }
  }

  static String describe(X509Certificate cert) {
    return "subject '"
        + cert.getSubjectX500Principal().getName()
        + "', issuer '"
        + cert.getIssuerX500Principal().getName()
        + "', serial "
        + cert.getSerialNumber().toString(16)
        + ", valid until "
        + cert.getNotAfter().toInstant();
  }

  private static byte[] digest(Path... files) throws TlsFileException {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      for (Path file : files) {
        try {
          sha.update(Files.readAllBytes(file));
        } catch (IOException e) {
          throw new TlsFileException(file, "cannot be read", e);
        }
      }
      return sha.digest();
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    if (poller != null) {
      poller.shutdownNow();
    }
  }

  /**
   * Logged when the listeners are up: plaintext is a development setting, and a broker token that
   * mutual TLS makes unused should not look like it still works.
   */
  public void warnAboutSettings(boolean brokerTokenSet) {
    if (!enabled()) {
      LOG.warning(
          "TLS is off: HTTP, gRPC and bootstrap traffic (tokens, the broker secret) travels in"
              + " plaintext. Set SERVICE_CONTROLPLANE_TLS_CERT_PATH and"
              + " SERVICE_CONTROLPLANE_TLS_KEY_PATH outside local development.");
    }
    if (settings.certificateRequired() && brokerTokenSet) {
      LOG.warning(
          "SERVICE_CONTROLPLANE_BROKER_TOKEN is ignored: mutual TLS requires broker certificates"
              + " (set SERVICE_CONTROLPLANE_MTLS_VERIFY_PEER=false to accept both while migrating)");
    }
    if (settings.mtlsEnabled() && settings.allowedCommonNames().isEmpty()) {
      LOG.warning(
          "SERVICE_CONTROLPLANE_MTLS_ALLOWED_COMMON_NAMES is empty: every certificate the broker CA"
              + " signed is accepted as a broker");
    }
  }
}
