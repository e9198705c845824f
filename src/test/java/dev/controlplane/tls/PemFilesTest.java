package dev.controlplane.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.controlplane.it.support.Certificates;
import dev.controlplane.it.support.Certificates.Pair;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PemFilesTest {

  @TempDir Path dir;

  @Test
  void readsAnOpensslCertificateAndItsPkcs8Key() throws Exception {
    var certs = new Certificates(dir);
    Pair server = certs.server(certs.ca("ca"), "node-1");
    var identity = PemFiles.identity(server.cert(), server.key());
    assertEquals("CN=node-1", identity.leaf().getSubjectX500Principal().getName());
  }

  @Test
  void refusesAKeyThatIsNotTheCertificatesNamingTheKeyFile() throws Exception {
    var certs = new Certificates(dir);
    Pair ca = certs.ca("ca");
    Pair one = certs.server(ca, "one");
    Pair two = certs.server(ca, "two");
    var e =
        assertThrows(
            PemFiles.TlsFileException.class, () -> PemFiles.identity(one.cert(), two.key()));
    assertEquals(two.key(), e.file());
    assertTrue(e.getMessage().contains("is not the private key"), e.getMessage());
  }

  @Test
  void refusesAFileWithoutPemCertificates() throws Exception {
    Path junk = Files.writeString(dir.resolve("junk.pem"), "not a certificate\n");
    var e = assertThrows(PemFiles.TlsFileException.class, () -> PemFiles.certificates(junk));
    assertEquals(junk, e.file());
  }

  @Test
  void refusesAMissingFileWithoutReadingAnythingElse() {
    Path missing = dir.resolve("missing.pem");
    var e = assertThrows(PemFiles.TlsFileException.class, () -> PemFiles.certificates(missing));
    assertTrue(e.getMessage().startsWith(missing.toString()), e.getMessage());
  }

  @Test
  void refusesAnExpiredCertificateNamingTheFileAndWhenItExpired() throws Exception {
    var certs = new Certificates(dir);
    Pair expired = certs.expiredServer(certs.ca("ca"), "stale");
    var e =
        assertThrows(
            PemFiles.TlsFileException.class,
            () -> PemFiles.identity(expired.cert(), expired.key()));
    assertEquals(expired.cert(), e.file());
    assertTrue(e.getMessage().contains("holds an expired certificate"), e.getMessage());
    assertTrue(e.getMessage().contains("CN=stale"), e.getMessage());
  }

  @Test
  void refusesAChainWithACertificateNotValidYetOrExpiredByThen() throws Exception {
    var certs = new Certificates(dir);
    Pair server = certs.server(certs.ca("ca"), "node-1");
    var chain = PemFiles.certificates(server.cert());
    java.time.Instant issued = chain[0].getNotBefore().toInstant();
    var early =
        assertThrows(
            PemFiles.TlsFileException.class,
            () -> PemFiles.requireValidNow(server.cert(), chain, issued.minusSeconds(60)));
    assertTrue(early.getMessage().contains("is not valid yet"), early.getMessage());
    var late =
        assertThrows(
            PemFiles.TlsFileException.class,
            () ->
                PemFiles.requireValidNow(
                    server.cert(), chain, issued.plus(java.time.Duration.ofDays(3))));
    assertTrue(late.getMessage().contains("expired at"), late.getMessage());
    PemFiles.requireValidNow(server.cert(), chain, issued.plusSeconds(60));
  }
}
