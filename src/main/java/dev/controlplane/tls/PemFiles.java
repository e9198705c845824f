package dev.controlplane.tls;

import io.grpc.util.CertificateUtils;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.X509Certificate;

/**
 * Reads PEM files with grpc-java's {@link CertificateUtils} (certificates, PKCS#8 private keys) and
 * checks what a TLS handshake would otherwise only discover: the key belongs to the certificate.
 */
public final class PemFiles {

  private PemFiles() {}

  /** A private key and its certificate chain, leaf first. */
  public record Identity(PrivateKey key, X509Certificate[] chain) {
    public X509Certificate leaf() {
      return chain[0];
    }
  }

  /** Reads and checks a certificate chain and its key; the message names the failing file. */
  public static Identity identity(Path certFile, Path keyFile) throws TlsFileException {
    X509Certificate[] chain = certificates(certFile);
    PrivateKey key;
    try (InputStream in = Files.newInputStream(keyFile)) {
      key = CertificateUtils.getPrivateKey(in);
    } catch (IOException | GeneralSecurityException | RuntimeException e) {
      throw new TlsFileException(keyFile, "is not a readable PEM PKCS#8 private key", e);
    }
    if (key == null) {
      throw new TlsFileException(keyFile, "holds no PEM PKCS#8 private key", null);
    }
    if (!matches(key, chain[0])) {
      throw new TlsFileException(
          keyFile, "is not the private key of the certificate in " + certFile, null);
    }
    requireValidNow(certFile, chain, java.time.Instant.now());
    return new Identity(key, chain);
  }

  /**
   * Every certificate of the chain is valid now: an expired one (a renewal job that wrote a stale
   * file) was loaded, and on a reload replaced a good one, failing every client's handshake on all
   * the listeners. Refused, it stops the start; on a reload the previous files stay in use and the
   * new ones are tried again at each check, so one that is not valid yet is taken once it is.
   */
  static void requireValidNow(Path certFile, X509Certificate[] chain, java.time.Instant now)
      throws TlsFileException {
    for (int i = 0; i < chain.length; i++) {
      String which = i == 0 ? "its certificate" : "certificate " + (i + 1) + " of its chain";
      java.time.Instant notAfter = chain[i].getNotAfter().toInstant();
      java.time.Instant notBefore = chain[i].getNotBefore().toInstant();
      if (now.isAfter(notAfter)) {
        throw new TlsFileException(
            certFile,
            "holds an expired certificate: "
                + which
                + " ("
                + chain[i].getSubjectX500Principal().getName()
                + ") expired at "
                + notAfter,
            null);
      }
      if (now.isBefore(notBefore)) {
        throw new TlsFileException(
            certFile,
            "holds a certificate that is not valid yet: "
                + which
                + " ("
                + chain[i].getSubjectX500Principal().getName()
                + ") is valid from "
                + notBefore,
            null);
      }
    }
  }

  /** Reads one or more PEM certificates (a chain, or a CA bundle). */
  public static X509Certificate[] certificates(Path file) throws TlsFileException {
    X509Certificate[] certs;
    try (InputStream in = Files.newInputStream(file)) {
      certs = CertificateUtils.getX509Certificates(in);
    } catch (IOException | GeneralSecurityException | RuntimeException e) {
      throw new TlsFileException(file, "is not a readable PEM certificate file", e);
    }
    if (certs == null || certs.length == 0) {
      throw new TlsFileException(file, "holds no PEM certificate", null);
    }
    return certs;
  }

  /** Signs a probe with the key and verifies it with the certificate's public key. */
  static boolean matches(PrivateKey key, X509Certificate cert) {
    String algorithm =
        switch (key.getAlgorithm()) {
          case "RSA" -> "SHA256withRSA";
          case "EC" -> "SHA256withECDSA";
          default -> key.getAlgorithm(); // Ed25519, Ed448
        };
    try {
      byte[] probe = "controlplane key check".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
      Signature signer = Signature.getInstance(algorithm);
      signer.initSign(key);
      signer.update(probe);
      byte[] signature = signer.sign();
      Signature verifier = Signature.getInstance(algorithm);
      verifier.initVerify(cert.getPublicKey());
      verifier.update(probe);
      return verifier.verify(signature);
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  /** A PEM file that cannot be used; the message names the file and why (never its content). */
  public static final class TlsFileException extends Exception {
    private final Path file;

    TlsFileException(Path file, String problem, Throwable cause) {
      super(file + " " + problem + (cause == null ? "" : ": " + cause.getMessage()));
      this.file = file;
    }

    public Path file() {
      return file;
    }
  }
}
