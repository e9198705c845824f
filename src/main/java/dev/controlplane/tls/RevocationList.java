package dev.controlplane.tls;

import dev.controlplane.tls.PemFiles.TlsFileException;
import io.grpc.util.AdvancedTlsX509TrustManager.SslSocketAndEnginePeerVerifier;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.CRLReason;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.CertificateRevokedException;
import java.security.cert.X509CRL;
import java.security.cert.X509CRLEntry;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import javax.net.ssl.SSLEngine;

/**
 * Certificate revocation lists of a CA file: the broker CA's ({@code
 * SERVICE_CONTROLPLANE_MTLS_CRL_PATH}) or the cluster CA's ({@code
 * SERVICE_CONTROLPLANE_CLUSTER_CRL_PATH}). A peer certificate whose chain verified is still refused
 * when a CRL of its issuer lists it, so one broker's or one member's key can be withdrawn without
 * replacing the CA. Each CRL must be signed by a CA of the CA file; one past its next update is
 * still applied (it still names what was revoked), with a warning, because refusing every peer over
 * a late CRL would be an outage.
 */
final class RevocationList implements SslSocketAndEnginePeerVerifier {

  private static final Logger LOG = Logger.getLogger(RevocationList.class.getName());

  private final String crlVariable;
  private final String caVariable;
  private final String peer;
  private volatile List<X509CRL> crls = List.of();

  /** Serials already logged as refused, so a peer retrying in a loop logs once. */
  private final Set<BigInteger> reported = ConcurrentHashMap.newKeySet();

  /**
   * @param crlVariable and {@code caVariable}: the settings of the CRL file and of its CA file, for
   *     messages
   * @param peer what presents the certificates checked, for the log: "client", "cluster member"
   */
  RevocationList(String crlVariable, String caVariable, String peer) {
    this.crlVariable = crlVariable;
    this.caVariable = caVariable;
    this.peer = peer;
  }

  /**
   * Reads the PEM CRLs in {@code file} and checks that each was signed by one of {@code cas};
   * throws, naming the file, when one is not.
   */
  List<X509CRL> read(Path file, X509Certificate[] cas) throws TlsFileException {
    Collection<? extends java.security.cert.CRL> parsed;
    try (InputStream in = Files.newInputStream(file)) {
      parsed = CertificateFactory.getInstance("X.509").generateCRLs(in);
    } catch (IOException e) {
      throw new TlsFileException(file, "cannot be read", e);
    } catch (GeneralSecurityException e) {
      throw new TlsFileException(file, "is not a PEM certificate revocation list", e);
    }
    if (parsed.isEmpty()) {
      throw new TlsFileException(file, "holds no CRL (-----BEGIN X509 CRL-----)", null);
    }
    List<X509CRL> crls = new ArrayList<>();
    for (var crl : parsed) {
      X509CRL x509 = (X509CRL) crl;
      verify(file, x509, cas);
      crls.add(x509);
    }
    return List.copyOf(crls);
  }

  private void verify(Path file, X509CRL crl, X509Certificate[] cas) throws TlsFileException {
    for (X509Certificate ca : cas) {
      if (ca.getSubjectX500Principal().equals(crl.getIssuerX500Principal())) {
        try {
          crl.verify(ca.getPublicKey());
          return;
        } catch (GeneralSecurityException e) {
          throw new TlsFileException(
              file,
              "holds a CRL of '"
                  + crl.getIssuerX500Principal().getName()
                  + "' whose signature does not verify with that CA's key",
              e);
        }
      }
    }
    throw new TlsFileException(
        file,
        "holds a CRL of '"
            + crl.getIssuerX500Principal().getName()
            + "', which is not a CA of "
            + caVariable,
        null);
  }

  /** Applies {@code next} to every handshake from now on. */
  void use(List<X509CRL> next) {
    Instant now = Instant.now();
    for (X509CRL crl : next) {
      if (crl.getNextUpdate() != null && crl.getNextUpdate().toInstant().isBefore(now)) {
        LOG.warning(
            "the CRL of '"
                + crl.getIssuerX500Principal().getName()
                + "' was due for renewal at "
                + crl.getNextUpdate().toInstant()
                + "; it is still applied: publish a fresh one to "
                + crlVariable);
      }
    }
    crls = next;
  }

  /** Refuses a chain one of whose certificates a CRL of its issuer lists. */
  void check(X509Certificate[] chain) throws CertificateRevokedException {
    for (X509Certificate cert : chain) {
      for (X509CRL crl : crls) {
        if (!crl.getIssuerX500Principal().equals(cert.getIssuerX500Principal())) {
          continue;
        }
        X509CRLEntry entry = crl.getRevokedCertificate(cert);
        if (entry != null) {
          if (reported.add(cert.getSerialNumber())) {
            LOG.warning(
                "refused a revoked "
                    + peer
                    + " certificate ("
                    + TransportSecurity.describe(cert)
                    + ", revoked at "
                    + entry.getRevocationDate().toInstant()
                    + ")");
          }
          CRLReason reason = entry.getRevocationReason();
          throw new CertificateRevokedException(
              entry.getRevocationDate(),
              reason == null ? CRLReason.UNSPECIFIED : reason,
              crl.getIssuerX500Principal(),
              Map.of());
        }
      }
    }
  }

  @Override
  public void verifyPeerCertificate(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    check(chain);
  }

  @Override
  public void verifyPeerCertificate(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    check(chain);
  }
}
