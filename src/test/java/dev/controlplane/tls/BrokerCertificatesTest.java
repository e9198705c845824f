package dev.controlplane.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.controlplane.it.support.Certificates;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BrokerCertificatesTest {

  @TempDir Path dir;

  private static BrokerCertificates allowing(List<String> names, boolean verifyPeer) {
    return new BrokerCertificates(
        new TlsSettings(
            Optional.of(Path.of("c")),
            Optional.of(Path.of("k")),
            Duration.ofSeconds(1),
            true,
            Optional.of(Path.of("ca")),
            verifyPeer,
            names,
            false,
            Optional.empty(),
            Optional.empty(),
            Optional.empty()),
        chain -> Optional.empty());
  }

  @Test
  void brokerIdentityIsTheCertificatesCommonName() throws Exception {
    var certs = new Certificates(dir);
    var client = certs.client(certs.ca("ca"), "broker-7");
    var cert = PemFiles.certificates(client.cert())[0];
    assertEquals(Optional.of("broker-7"), BrokerCertificates.commonName(cert));
  }

  @Test
  void onlyListedNamesOrPrefixesAreAllowed() {
    var certificates = allowing(List.of("broker-a", "eu-*"), true);
    assertTrue(certificates.allowed("broker-a"));
    assertTrue(certificates.allowed("eu-broker-3"));
    assertFalse(certificates.allowed("broker-ab"));
    assertFalse(certificates.allowed("us-broker-3"));
  }

  @Test
  void noListAllowsEveryNameTheCaSigned() {
    assertTrue(allowing(List.of(), true).allowed("anything"));
  }

  @Test
  void certificatesAreRequiredOnlyWhenPeersAreVerified() {
    assertTrue(allowing(List.of(), true).required());
    assertFalse(allowing(List.of(), false).required());
  }
}
