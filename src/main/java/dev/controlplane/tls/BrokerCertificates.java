package dev.controlplane.tls;

import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;

/**
 * Who a broker is under mutual TLS: the subject common name of its verified client certificate,
 * allowed when it is in {@code SERVICE_CONTROLPLANE_MTLS_ALLOWED_COMMON_NAMES} (an entry ending in
 * {@code *} allows every name starting with the rest; no entries allow every name the CA signed, as
 * etcd does without {@code --client-cert-allowed-cn}).
 */
public final class BrokerCertificates {

  private final boolean enabled;
  private final boolean required;
  private final List<String> allowed;
  private final Function<X509Certificate[], Optional<String>> withdrawn;

  BrokerCertificates(
      TlsSettings settings, Function<X509Certificate[], Optional<String>> withdrawn) {
    this.enabled = settings.mtlsEnabled();
    this.required = settings.certificateRequired();
    this.allowed = settings.allowedCommonNames();
    this.withdrawn = withdrawn;
  }

  /**
   * Why a client chain verified in its handshake is not trusted by the broker CA and CRL files in
   * use now; empty when it still is. Asked on every broker call, because a resumed TLS session or a
   * connection opened before a revocation is not verified again by the handshake.
   */
  public Optional<String> withdrawn(X509Certificate[] chain) {
    return withdrawn.apply(chain);
  }

  /** Client certificates identify brokers (mTLS is on). */
  public boolean enabled() {
    return enabled;
  }

  /** A broker RPC without a client certificate is refused (the shared token is not accepted). */
  public boolean required() {
    return required;
  }

  /** The last CN of the subject (the most specific), if it has one. */
  public static Optional<String> commonName(X509Certificate cert) {
    try {
      LdapName name = new LdapName(cert.getSubjectX500Principal().getName());
      Optional<String> cn = Optional.empty();
      // getRdns() lists the string's RDNs right to left: the last CN found is the leftmost one.
      for (Rdn rdn : name.getRdns()) {
        if (rdn.getType().equalsIgnoreCase("CN")) {
          cn = Optional.of(rdn.getValue().toString());
        }
      }
      return cn;
    } catch (InvalidNameException e) {
      return Optional.empty();
    }
  }

  public boolean allowed(String commonName) {
    if (allowed.isEmpty()) {
      return true;
    }
    for (String entry : allowed) {
      boolean match =
          entry.endsWith("*")
              ? commonName.startsWith(entry.substring(0, entry.length() - 1))
              : commonName.equals(entry);
      if (match) {
        return true;
      }
    }
    return false;
  }
}
