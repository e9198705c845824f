package dev.controlplane.grpc;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;
import dev.controlplane.metadata.kind.Kinds;
import dev.controlplane.metadata.model.Resource;
import dev.controlplane.metadata.model.ResourceKind;
import dev.controlplane.metadata.snapshot.MetadataImage;
import dev.controlplane.proto.v1.GetSnapshotResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * An image as snapshot chunks whose {@code metadata} is at most {@code chunkBytes} (or one resource
 * when a single one is larger), built one at a time as the client takes them: a snapshot of any
 * size holds one chunk in memory beyond the (shared, immutable) image and the encoded resources.
 *
 * <p>Each chunk is written in the wire form of a {@link GetSnapshotResponse} from the resources'
 * kept wire forms ({@link EncodedResources}): protobuf's own encoder writes the fields in number
 * order as it would for the message, so the bytes are those of the message built field by field
 * ({@code SnapshotChunksTest} compares them).
 *
 * <p>Not thread-safe: used by one call's onReady handler, which gRPC runs serially.
 */
final class SnapshotChunks implements Iterator<EncodedChunk> {

  private final MetadataImage image;
  private final int chunkBytes;
  private final EncodedResources encoded;
  private final long pass;
  private final List<byte[]> parts = new ArrayList<>();
  private final List<Integer> fields = new ArrayList<>();
  private int kindIndex = -1;
  private Iterator<Resource> resources = Collections.emptyIterator();
  private byte[] pending;
  private int pendingField;
  private int chunk;
  private boolean lastSent;

  SnapshotChunks(MetadataImage image, int chunkBytes, EncodedResources encoded) {
    this.image = image;
    this.chunkBytes = chunkBytes;
    this.encoded = encoded;
    this.pass = encoded.beginPass();
  }

  /** The pass this snapshot counts as in {@link EncodedResources}. */
  long pass() {
    return pass;
  }

  @Override
  public boolean hasNext() {
    return !lastSent;
  }

  @Override
  public EncodedChunk next() {
    if (lastSent) {
      throw new NoSuchElementException();
    }
    parts.clear();
    fields.clear();
    int size = 0;
    while (true) {
      if (pending == null && !advance()) {
        lastSent = true;
        break;
      }
      int framed = CodedOutputStream.computeByteArraySize(pendingField, pending);
      if (size > 0 && size + framed > chunkBytes) {
        break;
      }
      parts.add(pending);
      fields.add(pendingField);
      size += framed;
      pending = null;
    }
    return encode(size, lastSent);
  }

  /** Moves {@link #pending} to the next resource of the image; false when there is none. */
  private boolean advance() {
    while (!resources.hasNext()) {
      if (++kindIndex >= ResourceKind.values().length) {
        kindIndex = ResourceKind.values().length - 1;
        return false;
      }
      ResourceKind kind = ResourceKind.values()[kindIndex];
      resources = image.map(kind).values().iterator();
      pendingField = Kinds.of(kind).snapshotField();
    }
    pending = encoded.bytes(resources.next(), pass);
    return true;
  }

  private EncodedChunk encode(int metadataSize, boolean last) {
    long version = image.version();
    int total =
        (version != 0
                ? CodedOutputStream.computeUInt64Size(
                    GetSnapshotResponse.VERSION_FIELD_NUMBER, version)
                : 0)
            + CodedOutputStream.computeTagSize(GetSnapshotResponse.METADATA_FIELD_NUMBER)
            + CodedOutputStream.computeUInt32SizeNoTag(metadataSize)
            + metadataSize
            + (chunk != 0
                ? CodedOutputStream.computeUInt32Size(GetSnapshotResponse.CHUNK_FIELD_NUMBER, chunk)
                : 0)
            + (last
                ? CodedOutputStream.computeBoolSize(GetSnapshotResponse.LAST_FIELD_NUMBER, true)
                : 0);
    byte[] bytes = new byte[total];
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    try {
      if (version != 0) {
        out.writeUInt64(GetSnapshotResponse.VERSION_FIELD_NUMBER, version);
      }
      out.writeTag(GetSnapshotResponse.METADATA_FIELD_NUMBER, WireFormat.WIRETYPE_LENGTH_DELIMITED);
      out.writeUInt32NoTag(metadataSize);
      for (int i = 0; i < parts.size(); i++) {
        out.writeByteArray(fields.get(i), parts.get(i));
      }
      if (chunk != 0) {
        out.writeUInt32(GetSnapshotResponse.CHUNK_FIELD_NUMBER, chunk);
      }
      if (last) {
        out.writeBool(GetSnapshotResponse.LAST_FIELD_NUMBER, true);
      }
      out.checkNoSpaceLeft();
    } catch (IOException e) {
      throw new UncheckedIOException("a snapshot chunk's size was miscounted", e);
    }
    chunk++;
    return new EncodedChunk(bytes);
  }
}
