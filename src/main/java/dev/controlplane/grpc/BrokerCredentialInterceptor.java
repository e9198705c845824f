package dev.controlplane.grpc;

import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;
import java.util.Set;

/**
 * Requires the broker credential ({@code authorization: Bearer
 * <SERVICE_CONTROLPLANE_BROKER_TOKEN>}) on the broker-facing services. Compared in constant time;
 * with no token configured every call is refused, so an unconfigured control plane never serves
 * metadata to anyone.
 */
final class BrokerCredentialInterceptor implements ServerInterceptor {

  static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

  private final Optional<byte[]> expected;
  private final Set<String> guardedServices;

  BrokerCredentialInterceptor(Optional<String> token, Set<String> guardedServices) {
    this.expected = token.map(t -> ("Bearer " + t).getBytes(StandardCharsets.UTF_8));
    this.guardedServices = guardedServices;
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    if (!guardedServices.contains(call.getMethodDescriptor().getServiceName())) {
      return next.startCall(call, headers);
    }
    String presented = headers.get(AUTHORIZATION);
    if (expected.isEmpty()) {
      return refuse(
          call, "broker RPCs are disabled: SERVICE_CONTROLPLANE_BROKER_TOKEN is not configured");
    }
    if (presented == null
        || !MessageDigest.isEqual(expected.get(), presented.getBytes(StandardCharsets.UTF_8))) {
      return refuse(call, "missing or invalid broker credential");
    }
    return next.startCall(call, headers);
  }

  private static <Q, R> ServerCall.Listener<Q> refuse(ServerCall<Q, R> call, String why) {
    call.close(Status.UNAUTHENTICATED.withDescription(why), new Metadata());
    return new ServerCall.Listener<>() {};
  }
}
