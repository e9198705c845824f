package dev.controlplane.it.support;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * Real certificates for tests, made by the openssl command line (EC P-256, PEM, PKCS#8 keys): a CA
 * and certificates it signs, for servers (SAN 127.0.0.1 and localhost) or clients (brokers).
 */
public final class Certificates {

  /** A new EC P-256 key, unencrypted (openssl writes it as PKCS#8). */
  private static final List<String> NEW_KEY =
      List.of("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes");

  private final Path dir;

  public Certificates(Path dir) {
    this.dir = dir;
  }

  /** A PEM certificate and its PEM PKCS#8 key. */
  public record Pair(Path cert, Path key) {}

  /** A self-signed CA named {@code name}. */
  public Pair ca(String name) throws IOException, InterruptedException {
    Pair ca = new Pair(dir.resolve(name + ".pem"), dir.resolve(name + ".key"));
    openssl(
        "req",
        "-x509",
        NEW_KEY,
        "-keyout",
        ca.key().toString(),
        "-out",
        ca.cert().toString(),
        "-days",
        "2",
        "-subj",
        "/CN=" + name,
        "-addext",
        "basicConstraints=critical,CA:TRUE",
        "-addext",
        "keyUsage=critical,keyCertSign,cRLSign");
    return ca;
  }

  /**
   * A server certificate for 127.0.0.1 and localhost signed by {@code ca}; also usable as a client
   * certificate, as cluster members present theirs when they connect to each other.
   */
  public Pair server(Pair ca, String name) throws IOException, InterruptedException {
    return signed(ca, name, SERVER_EXTENSIONS, 2);
  }

  /** A server certificate for the host name {@code host} only, signed by {@code ca}. */
  public Pair serverForHost(Pair ca, String host) throws IOException, InterruptedException {
    return signed(ca, host, "subjectAltName=DNS:" + host + "\nextendedKeyUsage=serverAuth\n", 2);
  }

  /** The same, expired: valid until a day before it was issued ({@code -days -1}). */
  public Pair expiredServer(Pair ca, String name) throws IOException, InterruptedException {
    return signed(ca, name, SERVER_EXTENSIONS, -1);
  }

  private static final String SERVER_EXTENSIONS =
      "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth\n";

  /** A client certificate with common name {@code cn} signed by {@code ca}. */
  public Pair client(Pair ca, String cn) throws IOException, InterruptedException {
    return signed(ca, cn, "extendedKeyUsage=clientAuth\n", 2);
  }

  private Pair signed(Pair ca, String cn, String extensions, int days)
      throws IOException, InterruptedException {
    String base = cn + "-" + ca.cert().getFileName().toString().replace(".pem", "");
    Pair pair = new Pair(dir.resolve(base + ".pem"), dir.resolve(base + ".key"));
    Path csr = request(pair, base, cn);
    Path ext = dir.resolve(base + ".ext");
    Files.writeString(ext, extensions);
    openssl(
        "x509",
        "-req",
        "-in",
        csr.toString(),
        "-CA",
        ca.cert().toString(),
        "-CAkey",
        ca.key().toString(),
        "-CAcreateserial",
        "-out",
        pair.cert().toString(),
        "-days",
        Integer.toString(days),
        "-extfile",
        ext.toString());
    return pair;
  }

  /** A new key for {@code pair} and its certificate signing request for {@code cn}. */
  private Path request(Pair pair, String base, String cn) throws IOException, InterruptedException {
    Path csr = dir.resolve(base + ".csr");
    openssl(
        "req",
        NEW_KEY,
        "-keyout",
        pair.key().toString(),
        "-out",
        csr.toString(),
        "-subj",
        "/CN=" + cn);
    return csr;
  }

  /** A configuration for {@code openssl ca} with a database of its own, empty. */
  private Path caConfig() throws IOException {
    Path db = Files.createTempDirectory(dir, "ca-db-");
    Files.writeString(db.resolve("index.txt"), "");
    Files.writeString(db.resolve("crlnumber"), "01\n");
    Files.writeString(db.resolve("serial"), "1000\n");
    Path config = db.resolve("ca.cnf");
    Files.writeString(
        config,
        "[ ca ]\ndefault_ca = own\n[ own ]\ndatabase = "
            + db.resolve("index.txt")
            + "\ncrlnumber = "
            + db.resolve("crlnumber")
            + "\nserial = "
            + db.resolve("serial")
            + "\nnew_certs_dir = "
            + db
            + "\ndefault_md = sha256\npolicy = any\nunique_subject = no\n"
            + "[ any ]\ncommonName = supplied\n");
    return config;
  }

  /**
   * A PEM CRL of {@code ca} listing {@code revoked}, valid for 30 days, written to {@code out} by
   * openssl's own CA tooling ({@code ca -revoke}, then {@code ca -gencrl}).
   */
  public Path crl(Pair ca, Path out, Pair... revoked) throws IOException, InterruptedException {
    Path config = caConfig();
    List<String> common =
        List.of(
            "-config",
            config.toString(),
            "-keyfile",
            ca.key().toString(),
            "-cert",
            ca.cert().toString());
    for (Pair r : revoked) {
      openssl("ca", common, "-revoke", r.cert().toString());
    }
    openssl("ca", common, "-gencrl", "-crldays", "30", "-out", out.toString());
    return out;
  }

  /**
   * A client certificate for {@code cn} signed by {@code ca} that expires at {@code notAfter} (to
   * the second; openssl's {@code x509 -days} counts whole days only), issued by {@code openssl ca}.
   */
  public Pair clientUntil(Pair ca, String cn, java.time.Instant notAfter)
      throws IOException, InterruptedException {
    Path config = caConfig();
    Pair pair = new Pair(dir.resolve(cn + "-until.pem"), dir.resolve(cn + "-until.key"));
    Path csr = request(pair, cn + "-until", cn);
    Path ext = dir.resolve(cn + "-until.ext");
    Files.writeString(ext, "extendedKeyUsage=clientAuth\n");
    var utc =
        java.time.format.DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'")
            .withZone(java.time.ZoneOffset.UTC);
    openssl(
        "ca",
        List.of("-config", config.toString(), "-keyfile", ca.key().toString()),
        "-cert",
        ca.cert().toString(),
        "-in",
        csr.toString(),
        "-out",
        pair.cert().toString(),
        "-startdate",
        utc.format(java.time.Instant.now().minusSeconds(3600)),
        "-enddate",
        utc.format(notAfter),
        "-extfile",
        ext.toString(),
        "-notext",
        "-batch");
    return pair;
  }

  /** Replaces {@code target}'s files by {@code source}'s, each by an atomic move. */
  public static void install(Pair source, Pair target) throws IOException {
    Path keyTemp =
        Files.copy(
            source.key(),
            target.key().resolveSibling(".tmp-key"),
            StandardCopyOption.REPLACE_EXISTING);
    Path certTemp =
        Files.copy(
            source.cert(),
            target.cert().resolveSibling(".tmp-cert"),
            StandardCopyOption.REPLACE_EXISTING);
    Files.move(
        keyTemp, target.key(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    Files.move(
        certTemp,
        target.cert(),
        StandardCopyOption.REPLACE_EXISTING,
        StandardCopyOption.ATOMIC_MOVE);
  }

  /** A JDK client context trusting the certificates of {@code pem} (a CA or a server's own). */
  public static SSLContext trusting(Path pem) throws Exception {
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, trustManagers(pem), null);
    return context;
  }

  /** Trust managers for the certificates of {@code pem}. */
  public static TrustManager[] trustManagers(Path pem) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    int i = 0;
    for (X509Certificate cert : read(pem)) {
      store.setCertificateEntry("ca" + i++, cert);
    }
    TrustManagerFactory factory =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(store);
    return factory.getTrustManagers();
  }

  static List<X509Certificate> read(Path pem) throws Exception {
    List<X509Certificate> certs = new ArrayList<>();
    try (InputStream in = Files.newInputStream(pem)) {
      for (var cert : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
        certs.add((X509Certificate) cert);
      }
    }
    return certs;
  }

  /** Runs openssl; an argument may be a list of arguments. */
  private void openssl(Object... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add("openssl");
    for (Object arg : args) {
      if (arg instanceof List<?> list) {
        list.forEach(a -> command.add(a.toString()));
      } else {
        command.add(arg.toString());
      }
    }
    Process process =
        new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes());
    if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IOException(String.join(" ", command) + " failed:\n" + output);
    }
  }
}
