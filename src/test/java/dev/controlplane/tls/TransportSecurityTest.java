package dev.controlplane.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.controlplane.it.support.Certificates;
import dev.controlplane.it.support.Certificates.Pair;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TransportSecurityTest {

  @TempDir Path dir;

  private TlsSettings settings(Pair files) {
    return new TlsSettings(
        Optional.of(files.cert()),
        Optional.of(files.key()),
        Duration.ofHours(1), // reloads are driven by the test
        false,
        Optional.empty(),
        true,
        List.of(),
        false,
        Optional.empty());
  }

  private static String served(TransportSecurity tls) {
    X509Certificate[] chain =
        tls.keyManager().getCertificateChain(tls.keyManager().chooseServerAlias("EC", null, null));
    return chain[0].getSubjectX500Principal().getName();
  }

  private Certificates certs;
  private Pair ca;
  private Pair files;

  /** The node's files hold certificate "first", signed by "ca". */
  @org.junit.jupiter.api.BeforeEach
  void firstIdentity() throws Exception {
    certs = new Certificates(dir);
    ca = certs.ca("ca");
    files = new Pair(dir.resolve("tls.crt"), dir.resolve("tls.key"));
    Certificates.install(certs.server(ca, "first"), files);
  }

  @Test
  void rotatedFilesReplaceTheIdentityAndTheLibertyKeystore() throws Exception {
    var keystore = new LibertyKeystore(dir.resolve("ks/tls.p12"), "pw".toCharArray());
    try (var tls = TransportSecurity.start(settings(files), Optional.of(keystore))) {
      assertEquals("CN=first", served(tls));
      assertEquals("CN=first", keystoreSubject(keystore.file()));

      Certificates.install(certs.server(ca, "second"), files);
      tls.reload(false);

      assertEquals("CN=second", served(tls));
      assertEquals("CN=second", keystoreSubject(keystore.file()));
    }
  }

  @Test
  void aRotationWithAMismatchedKeyKeepsThePreviousIdentity() throws Exception {
    try (var tls = TransportSecurity.start(settings(files), Optional.empty())) {
      Pair other = certs.server(ca, "other");
      Files.copy(other.cert(), files.cert(), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      assertThrows(PemFiles.TlsFileException.class, () -> tls.reload(false));
      assertEquals("CN=first", served(tls));
    }
  }

  @Test
  void anUnusableFileAtStartNamesItsSetting() throws Exception {
    Pair broken = new Pair(files.cert(), dir.resolve("absent.key"));
    var e =
        assertThrows(
            IllegalArgumentException.class, () -> TransportSecurity.open(settings(broken)));
    assertEquals(
        true, e.getMessage().startsWith("SERVICE_CONTROLPLANE_TLS_KEY_PATH: "), e.getMessage());
  }

  @Test
  void theSelfCheckTrustsOnlyTheCertificateTheNodeServesNow() throws Exception {
    try (var tls = TransportSecurity.start(settings(files), Optional.empty())) {
      var own = new OwnCertificate(tls.keyManager());
      X509Certificate first = PemFiles.certificates(files.cert())[0];
      own.checkServerTrusted(new X509Certificate[] {first}, "EC");
      Certificates.install(certs.server(ca, "second"), files);
      tls.reload(false);
      assertThrows(
          java.security.cert.CertificateException.class,
          () -> own.checkServerTrusted(new X509Certificate[] {first}, "EC"));
    }
  }

  private static String keystoreSubject(Path file) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(file)) {
      store.load(in, "pw".toCharArray());
    }
    var cert = (X509Certificate) store.getCertificate(LibertyKeystore.ALIAS);
    return cert.getSubjectX500Principal().getName();
  }
}
