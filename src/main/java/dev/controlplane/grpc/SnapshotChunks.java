package dev.controlplane.grpc;

import com.google.protobuf.Message;
import dev.controlplane.metadata.kind.Kind;
import dev.controlplane.metadata.kind.Kinds;
import dev.controlplane.metadata.model.Resource;
import dev.controlplane.metadata.model.ResourceKind;
import dev.controlplane.metadata.snapshot.MetadataImage;
import dev.controlplane.proto.v1.GetSnapshotResponse;
import dev.controlplane.proto.v1.Metadata;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * An image as snapshot chunks of about {@code chunkBytes}, built one at a time as the client takes
 * them: a snapshot of any size holds one chunk in memory beyond the (shared, immutable) image. Not
 * thread-safe: used by one call's onReady handler, which gRPC runs serially.
 */
final class SnapshotChunks implements Iterator<GetSnapshotResponse> {

  /** Per message, the tag and length prefix it adds to the chunk. */
  private static final int FRAMING = 6;

  private final MetadataImage image;
  private final int chunkBytes;
  private int kindIndex = -1;
  private Iterator<Resource> resources;
  private Message pending;
  private int chunk;
  private boolean lastSent;

  SnapshotChunks(MetadataImage image, int chunkBytes) {
    this.image = image;
    this.chunkBytes = chunkBytes;
    this.resources = List.<Resource>of().iterator();
  }

  @Override
  public boolean hasNext() {
    return !lastSent;
  }

  @Override
  public GetSnapshotResponse next() {
    if (lastSent) {
      throw new NoSuchElementException();
    }
    Metadata.Builder part = Metadata.newBuilder();
    int size = 0;
    while (true) {
      if (pending == null && !advance()) {
        lastSent = true;
        return chunk(part, true);
      }
      int messageSize = pending.getSerializedSize() + FRAMING;
      if (size > 0 && size + messageSize > chunkBytes) {
        return chunk(part, false);
      }
      Kinds.of(ResourceKind.values()[kindIndex]).addTo(part, pending);
      size += messageSize;
      pending = null;
    }
  }

  /** Moves {@link #pending} to the next resource of the image; false when there is none. */
  private boolean advance() {
    while (!resources.hasNext()) {
      if (++kindIndex >= ResourceKind.values().length) {
        kindIndex = ResourceKind.values().length - 1;
        return false;
      }
      resources = image.ofKind(ResourceKind.values()[kindIndex]).iterator();
    }
    Kind<?> kind = Kinds.of(ResourceKind.values()[kindIndex]);
    pending = kind.message(resources.next());
    return true;
  }

  private GetSnapshotResponse chunk(Metadata.Builder part, boolean last) {
    return GetSnapshotResponse.newBuilder()
        .setVersion(image.version())
        .setMetadata(part)
        .setChunk(chunk++)
        .setLast(last)
        .build();
  }
}
