package dev.controlplane.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TlsConfigTest {

  private static TlsConfig config() {
    TlsConfig c = new TlsConfig();
    c.certPath = Optional.empty();
    c.keyPath = Optional.empty();
    c.reloadInterval = "10s";
    c.mtlsEnabled = "false";
    c.caPath = Optional.empty();
    c.verifyPeer = "true";
    c.allowedNames = Optional.empty();
    c.logFormat = "simple";
    c.clusterTls = "false";
    c.clusterCaPath = Optional.empty();
    c.crlPath = Optional.empty();
    c.clusterCrlPath = Optional.empty();
    return c;
  }

  private static String failure(TlsConfig c) {
    return assertThrows(IllegalArgumentException.class, c::settings).getMessage();
  }

  @Test
  void noPathsMeanPlaintext() {
    assertEquals(false, config().settings().enabled());
  }

  @Test
  void aCertificateWithoutItsKeyNamesTheMissingVariable() {
    TlsConfig c = config();
    c.certPath = Optional.of("/etc/tls.crt");
    assertTrue(failure(c).startsWith("SERVICE_CONTROLPLANE_TLS_KEY_PATH"), failure(c));
  }

  @Test
  void mutualTlsNeedsTlsAndACa() {
    TlsConfig c = config();
    c.mtlsEnabled = "true";
    assertTrue(failure(c).startsWith("SERVICE_CONTROLPLANE_MTLS_ENABLED"), failure(c));
    c.certPath = Optional.of("/etc/tls.crt");
    c.keyPath = Optional.of("/etc/tls.key");
    assertTrue(failure(c).startsWith("SERVICE_CONTROLPLANE_MTLS_CA_CERT_PATH"), failure(c));
  }

  @Test
  void aRevocationListNeedsMutualTls() {
    TlsConfig c = config();
    c.certPath = Optional.of("/etc/tls.crt");
    c.keyPath = Optional.of("/etc/tls.key");
    c.crlPath = Optional.of("/etc/brokers.crl");
    assertTrue(failure(c).startsWith("SERVICE_CONTROLPLANE_MTLS_CRL_PATH"), failure(c));
    c.mtlsEnabled = "true";
    c.caPath = Optional.of("/etc/brokers-ca.crt");
    assertEquals(Optional.of(Path.of("/etc/brokers.crl")), c.settings().crlPath());
  }

  @Test
  void clusterTlsNeedsTheNodeCertificateAndAClusterCa() {
    TlsConfig c = config();
    c.clusterTls = "true";
    assertTrue(failure(c).startsWith("SERVICE_CONTROLPLANE_CLUSTER_TLS"), failure(c));
  }

  @Test
  void aClusterRevocationListNeedsClusterTls() {
    TlsConfig c = config();
    c.certPath = Optional.of("/etc/tls.crt");
    c.keyPath = Optional.of("/etc/tls.key");
    c.clusterCrlPath = Optional.of("/etc/members.crl");
    assertTrue(failure(c).startsWith("SERVICE_CONTROLPLANE_CLUSTER_CRL_PATH"), failure(c));
    c.clusterTls = "true";
    c.clusterCaPath = Optional.of("/etc/cluster-ca.crt");
    assertEquals(Optional.of(Path.of("/etc/members.crl")), c.settings().clusterCrlPath());
  }

  @Test
  void aTypoInABooleanIsRefusedNotReadAsFalse() {
    TlsConfig c = config();
    c.mtlsEnabled = "ture";
    assertTrue(failure(c).contains("is not true or false"), failure(c));
  }

  @Test
  void allowedCommonNamesAreTrimmedAndEmptyEntriesDropped() {
    TlsConfig c = config();
    c.certPath = Optional.of("/etc/tls.crt");
    c.keyPath = Optional.of("/etc/tls.key");
    c.mtlsEnabled = "true";
    c.caPath = Optional.of("/etc/ca.pem");
    c.allowedNames = Optional.of(" broker-a, ,broker-* ");
    var settings = c.settings();
    assertEquals(List.of("broker-a", "broker-*"), settings.allowedCommonNames());
    assertEquals(Optional.of(Path.of("/etc/ca.pem")), settings.caPath());
    assertTrue(settings.certificateRequired());
  }

  @Test
  void onlySimpleOrJsonLogs() {
    TlsConfig c = config();
    c.logFormat = "JSON";
    assertEquals("json", c.logFormat());
    c.logFormat = "xml";
    assertThrows(IllegalArgumentException.class, c::logFormat);
  }
}
