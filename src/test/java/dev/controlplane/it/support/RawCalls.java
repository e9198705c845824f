package dev.controlplane.it.support;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A gRPC call of any method with the request given as bytes, as a client of any language sends. */
public final class RawCalls {

  private static final MethodDescriptor.Marshaller<byte[]> BYTES =
      new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
          return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
          try {
            return stream.readAllBytes();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      };

  private RawCalls() {}

  /**
   * Sends {@code request} to {@code method} and returns how the call closed; a streaming answer is
   * cancelled at its first message (the status is then the client's CANCELLED).
   */
  public static Status call(
      Channel channel, MethodDescriptor<?, ?> method, byte[] request, Duration deadline) {
    return call(channel, method, java.util.List.of(request), deadline);
  }

  /** The same with any number of request messages: none, or more than the method takes. */
  public static Status call(
      Channel channel,
      MethodDescriptor<?, ?> method,
      java.util.List<byte[]> requests,
      Duration deadline) {
    ClientCall<byte[], byte[]> call =
        channel.newCall(
            method.toBuilder(BYTES, BYTES).build(),
            CallOptions.DEFAULT.withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS));
    CompletableFuture<Status> closed = new CompletableFuture<>();
    call.start(
        new ClientCall.Listener<>() {
          @Override
          public void onMessage(byte[] message) {
            if (method.getType() != MethodDescriptor.MethodType.UNARY) {
              call.cancel("the first message is enough", null);
            }
          }

          @Override
          public void onClose(Status status, Metadata trailers) {
            closed.complete(status);
          }
        },
        new Metadata());
    call.request(Integer.MAX_VALUE);
    requests.forEach(call::sendMessage);
    call.halfClose();
    return closed.join();
  }
}
