package dev.controlplane.grpc;

import dev.controlplane.audit.Actor;
import dev.controlplane.audit.CurrentActor;
import io.grpc.ForwardingServerCallListener.SimpleForwardingServerCallListener;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Set;

/**
 * Binds each call's actor to the thread of every callback, so writes the call makes are recorded
 * with it ({@link CurrentActor}): the transport's remote address, the {@code user-agent} header,
 * and for broker services the broker (its certificate's common name, or {@code broker} for the
 * shared credential). Admin calls are anonymous until {@link AdminAuthorizer} verifies the token.
 * Registered first, so it runs innermost, after the interceptors that authenticate: their context
 * is attached when its callbacks run.
 */
final class AuditOriginInterceptor implements ServerInterceptor {

  static final Metadata.Key<String> USER_AGENT =
      Metadata.Key.of("user-agent", Metadata.ASCII_STRING_MARSHALLER);

  private final Set<String> brokerServices;

  AuditOriginInterceptor(Set<String> brokerServices) {
    this.brokerServices = brokerServices;
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    Actor origin =
        Actor.anonymous(
            address(call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR)),
            headers.get(USER_AGENT));
    boolean broker = brokerServices.contains(call.getMethodDescriptor().getServiceName());
    ServerCall.Listener<Q> delegate;
    try (var bound = CurrentActor.bind(actor(origin, broker))) {
      delegate = next.startCall(call, headers);
    }
    return new SimpleForwardingServerCallListener<>(delegate) {
      @Override
      public void onMessage(Q message) {
        try (var bound = CurrentActor.bind(actor(origin, broker))) {
          super.onMessage(message);
        }
      }

      @Override
      public void onHalfClose() {
        try (var bound = CurrentActor.bind(actor(origin, broker))) {
          super.onHalfClose();
        }
      }
    };
  }

  private static Actor actor(Actor origin, boolean broker) {
    if (!broker) {
      return origin;
    }
    String certified = BrokerCredentialInterceptor.CERTIFIED_BROKER.get();
    return origin.as(certified == null ? Actor.BROKER : certified, Actor.BROKER);
  }

  private static String address(SocketAddress address) {
    return address instanceof InetSocketAddress inet && inet.getAddress() != null
        ? inet.getAddress().getHostAddress()
        : address == null ? null : address.toString();
  }
}
