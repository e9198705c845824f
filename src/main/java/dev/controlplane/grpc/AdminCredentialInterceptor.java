package dev.controlplane.grpc;

import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;

/**
 * Requires the platform operator credential ({@code authorization: Bearer
 * <SERVICE_CONTROLPLANE_OPERATOR_TOKEN>}) on AdminService, compared in constant time. Without one
 * configured every admin call is refused.
 */
final class AdminCredentialInterceptor implements ServerInterceptor {

  private final Optional<byte[]> expected;
  private final String service;

  AdminCredentialInterceptor(Optional<String> operatorToken, String service) {
    this.expected = operatorToken.map(t -> ("Bearer " + t).getBytes(StandardCharsets.UTF_8));
    this.service = service;
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    if (!service.equals(call.getMethodDescriptor().getServiceName())) {
      return next.startCall(call, headers);
    }
    String presented = headers.get(BrokerCredentialInterceptor.AUTHORIZATION);
    if (expected.isEmpty()
        || presented == null
        || !MessageDigest.isEqual(expected.get(), presented.getBytes(StandardCharsets.UTF_8))) {
      call.close(Status.UNAUTHENTICATED.withDescription("missing or invalid admin credential"), new Metadata());
      return new ServerCall.Listener<>() {};
    }
    return next.startCall(call, headers);
  }
}
