package dev.controlplane.grpc;

import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;

/**
 * Ends a call that {@link CallExecutors} refused, before any other interceptor or service runs.
 * grpc-java picks a call's executor before it starts the call and offers no way to end it there, so
 * the refusal travels to this interceptor, the server's outermost, in a header of the call's own
 * {@link Metadata}; a client's header of that name is dropped before the choice is made.
 */
final class RefusedCalls implements ServerInterceptor {

  private static final Metadata.Key<String> REFUSED =
      Metadata.Key.of("x-controlplane-refused", Metadata.ASCII_STRING_MARSHALLER);

  /** Drops a client's header of the name this class uses. */
  static void clear(Metadata headers) {
    headers.discardAll(REFUSED);
  }

  static void refuse(Metadata headers, String why) {
    headers.put(REFUSED, why);
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    String why = headers.get(REFUSED);
    if (why == null) {
      return next.startCall(call, headers);
    }
    call.close(Status.UNAVAILABLE.withDescription(why), new Metadata());
    return new ServerCall.Listener<>() {};
  }
}
