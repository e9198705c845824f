package dev.controlplane.grpc;

import dev.controlplane.config.SharedCredentials;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;

/**
 * Counts each call that presents a fallback token of a shared credential, once, whichever service
 * it is for ({@code controlplane_credential_fallback_uses_total}).
 */
final class FallbackCredentialCounter implements ServerInterceptor {

  private final SharedCredentials credentials;

  FallbackCredentialCounter(SharedCredentials credentials) {
    this.credentials = credentials;
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    credentials.countFallbackUse(headers.get(BrokerCredentialInterceptor.AUTHORIZATION));
    return next.startCall(call, headers);
  }
}
