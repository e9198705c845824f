package dev.controlplane.grpc;

import io.grpc.Drainable;
import io.grpc.KnownLength;
import io.grpc.MethodDescriptor;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * A {@code GetSnapshotResponse} already in its wire form (see {@link SnapshotChunks}), and the
 * marshaller that sends it as it is: clients see exactly the bytes protobuf would have written.
 */
final class EncodedChunk {

  static final MethodDescriptor.Marshaller<EncodedChunk> MARSHALLER =
      new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(EncodedChunk chunk) {
          return new Bytes(chunk.bytes);
        }

        @Override
        public EncodedChunk parse(InputStream stream) {
          try {
            return new EncodedChunk(stream.readAllBytes());
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      };

  private final byte[] bytes;

  EncodedChunk(byte[] bytes) {
    this.bytes = bytes;
  }

  /** Known length and drainable, so gRPC frames the message without copying it through a buffer. */
  private static final class Bytes extends ByteArrayInputStream implements KnownLength, Drainable {

    Bytes(byte[] bytes) {
      super(bytes);
    }

    @Override
    public synchronized int drainTo(OutputStream target) throws IOException {
      int length = count - pos;
      target.write(buf, pos, length);
      pos = count;
      return length;
    }
  }
}
