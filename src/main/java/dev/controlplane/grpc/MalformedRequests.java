package dev.controlplane.grpc;

import com.google.protobuf.InvalidProtocolBufferException;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServiceDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.InputStream;
import java.util.List;

/**
 * A request whose bytes do not parse as the method's message is the client's mistake, so it is
 * answered INVALID_ARGUMENT. grpc-java parses a request before any interceptor or handler sees it
 * and answers a failed parse with UNKNOWN ("Application error processing RPC"), which tells the
 * client nothing and reads as a fault of the server. Each method's request marshaller therefore
 * yields null for bytes that do not parse, and the method's listener turns that null into the
 * refusal before the handler runs.
 */
final class MalformedRequests {

  private MalformedRequests() {}

  /** {@code service} with every method guarded; names, schema and handlers are unchanged. */
  static ServerServiceDefinition guard(ServerServiceDefinition service) {
    ServiceDescriptor original = service.getServiceDescriptor();
    List<ServerMethodDefinition<?, ?>> methods =
        service.getMethods().stream()
            .<ServerMethodDefinition<?, ?>>map(MalformedRequests::guard)
            .toList();
    ServiceDescriptor.Builder descriptor =
        ServiceDescriptor.newBuilder(original.getName())
            .setSchemaDescriptor(original.getSchemaDescriptor());
    methods.forEach(m -> descriptor.addMethod(m.getMethodDescriptor()));
    ServerServiceDefinition.Builder guarded = ServerServiceDefinition.builder(descriptor.build());
    methods.forEach(guarded::addMethod);
    return guarded.build();
  }

  private static <Q, R> ServerMethodDefinition<Q, R> guard(ServerMethodDefinition<Q, R> method) {
    MethodDescriptor<Q, R> original = method.getMethodDescriptor();
    MethodDescriptor<Q, R> lenient =
        original.toBuilder(
                new NullWhenMalformed<>(original.getRequestMarshaller()),
                original.getResponseMarshaller())
            .build();
    ServerCallHandler<Q, R> handler = method.getServerCallHandler();
    return ServerMethodDefinition.create(
        lenient, (call, headers) -> new Refusing<>(call, handler.startCall(call, headers)));
  }

  private record NullWhenMalformed<Q>(MethodDescriptor.Marshaller<Q> parser)
      implements MethodDescriptor.Marshaller<Q> {

    @Override
    public InputStream stream(Q value) {
      return parser.stream(value);
    }

    @Override
    public Q parse(InputStream bytes) {
      try {
        return parser.parse(bytes);
      } catch (StatusRuntimeException e) {
        if (e.getCause() instanceof InvalidProtocolBufferException) {
          return null;
        }
        throw e;
      }
    }
  }

  /**
   * Also refuses a call of a method that takes one request message but ended without one:
   * grpc-java's own handler answers it INTERNAL ("Half-closed without a request"), a server fault
   * in the client's eyes for what a hand-written client got wrong. A second request message never
   * reaches a listener: grpc-java's server call resets the stream at once (the client sees
   * CANCELLED), before any of this code could answer.
   */
  private static final class Refusing<Q, R>
      extends ForwardingServerCallListener.SimpleForwardingServerCallListener<Q> {

    private final ServerCall<Q, R> call;
    private final boolean takesOneRequest;
    private int received;
    private boolean refused;

    Refusing(ServerCall<Q, R> call, ServerCall.Listener<Q> handler) {
      super(handler);
      this.call = call;
      this.takesOneRequest = call.getMethodDescriptor().getType().clientSendsOneMessage();
    }

    @Override
    public void onMessage(Q message) {
      if (refused) {
        return;
      }
      if (message == null) {
        refuse("the request does not parse as the message of ");
        return;
      }
      received++;
      super.onMessage(message);
    }

    @Override
    public void onHalfClose() {
      if (refused) {
        return;
      }
      if (takesOneRequest && received == 0) {
        refuse("the call ended without its request message: send exactly one to ");
        return;
      }
      super.onHalfClose();
    }

    private void refuse(String what) {
      refused = true;
      call.close(
          Status.INVALID_ARGUMENT.withDescription(
              what + call.getMethodDescriptor().getFullMethodName()),
          new Metadata());
    }

    @Override
    public void onReady() {
      if (!refused) {
        super.onReady();
      }
    }
  }
}
