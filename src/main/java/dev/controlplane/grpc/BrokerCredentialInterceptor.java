package dev.controlplane.grpc;

import dev.controlplane.config.SharedSecret;
import dev.controlplane.tls.BrokerCertificates;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/**
 * Authenticates broker-facing services. With mutual TLS a client certificate (verified against the
 * CA during the handshake) identifies the broker by its common name, which must be allowed; the
 * name is put in {@link #CERTIFIED_BROKER} so RPCs can insist a broker speaks only for itself.
 * Without a certificate, and unless certificates are required, the shared broker credential ({@code
 * authorization: Bearer <SERVICE_CONTROLPLANE_BROKER_TOKEN>}) is compared in constant time; with no
 * token configured every such call is refused, so an unconfigured control plane never serves
 * metadata to anyone.
 */
final class BrokerCredentialInterceptor implements ServerInterceptor {

  static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

  /** The broker a verified client certificate names; unset for token-authenticated calls. */
  static final Context.Key<String> CERTIFIED_BROKER = Context.key("controlplane-certified-broker");

  /**
   * Asks whether the certificate of a certified call is still accepted (see {@link
   * BrokerCertificates#withdrawn}); unset for token-authenticated calls.
   */
  static final Context.Key<Supplier<Optional<String>>> CREDENTIALS_WITHDRAWN =
      Context.key("controlplane-credentials-withdrawn");

  private static final String WITHDRAWN = "the client certificate is no longer accepted: ";

  /** The shared broker credential, or empty when certificates are required instead. */
  private final Optional<SharedSecret> expected;

  private final Set<String> guardedServices;
  private final BrokerCertificates certificates;

  BrokerCredentialInterceptor(
      SharedSecret token, Set<String> guardedServices, BrokerCertificates certificates) {
    this.expected =
        certificates.required() || !token.configured() ? Optional.empty() : Optional.of(token);
    this.guardedServices = guardedServices;
    this.certificates = certificates;
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    if (!guardedServices.contains(call.getMethodDescriptor().getServiceName())) {
      return next.startCall(call, headers);
    }
    if (certificates.enabled()) {
      Optional<X509Certificate[]> peer = peerChain(call);
      if (peer.isPresent()) {
        return certified(call, headers, next, peer.get());
      }
      if (certificates.required()) {
        return refuse(
            call,
            Status.UNAUTHENTICATED,
            "broker RPCs need a client certificate (SERVICE_CONTROLPLANE_MTLS_ENABLED)");
      }
    }
    String presented = headers.get(AUTHORIZATION);
    if (expected.isEmpty()) {
      return refuse(
          call,
          Status.UNAUTHENTICATED,
          "broker RPCs are disabled: SERVICE_CONTROLPLANE_BROKER_TOKEN is not configured");
    }
    if (!expected.get().accepts(presented)) {
      return refuse(call, Status.UNAUTHENTICATED, "missing or invalid broker credential");
    }
    return next.startCall(call, headers);
  }

  private <Q, R> ServerCall.Listener<Q> certified(
      ServerCall<Q, R> call,
      Metadata headers,
      ServerCallHandler<Q, R> next,
      X509Certificate[] chain) {
    Supplier<Optional<String>> withdrawn =
        () -> certificates.withdrawn(chain).map(why -> WITHDRAWN + why);
    Optional<String> now = withdrawn.get();
    if (now.isPresent()) {
      return refuse(call, Status.UNAUTHENTICATED, now.get());
    }
    Optional<String> name = BrokerCertificates.commonName(chain[0]);
    if (name.isEmpty()) {
      return refuse(
          call, Status.PERMISSION_DENIED, "the client certificate's subject has no common name");
    }
    if (!certificates.allowed(name.get())) {
      return refuse(
          call,
          Status.PERMISSION_DENIED,
          "client certificate common name '"
              + name.get()
              + "' is not in SERVICE_CONTROLPLANE_MTLS_ALLOWED_COMMON_NAMES");
    }
    Context context =
        Context.current()
            .withValues(CERTIFIED_BROKER, name.get(), CREDENTIALS_WITHDRAWN, withdrawn);
    return Contexts.interceptCall(context, call, headers, next);
  }

  /** The current call's {@link #CREDENTIALS_WITHDRAWN}, never withdrawn when it has none. */
  static Supplier<Optional<String>> credentialsWithdrawn() {
    Supplier<Optional<String>> check = CREDENTIALS_WITHDRAWN.get();
    return check == null ? Optional::empty : check;
  }

  private static Optional<X509Certificate[]> peerChain(ServerCall<?, ?> call) {
    SSLSession session = call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION);
    if (session == null) {
      return Optional.empty();
    }
    try {
      Certificate[] chain = session.getPeerCertificates();
      if (chain.length == 0) {
        return Optional.empty();
      }
      X509Certificate[] x509 = new X509Certificate[chain.length];
      for (int i = 0; i < chain.length; i++) {
        if (!(chain[i] instanceof X509Certificate cert)) {
          return Optional.empty();
        }
        x509[i] = cert;
      }
      return Optional.of(x509);
    } catch (SSLPeerUnverifiedException noCertificate) {
      return Optional.empty();
    }
  }

  private static <Q, R> ServerCall.Listener<Q> refuse(
      ServerCall<Q, R> call, Status status, String why) {
    call.close(status.withDescription(why), new Metadata());
    return new ServerCall.Listener<>() {};
  }
}
