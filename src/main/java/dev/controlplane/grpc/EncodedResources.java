package dev.controlplane.grpc;

import dev.controlplane.metadata.kind.Kinds;
import dev.controlplane.metadata.model.Resource;
import dev.controlplane.metadata.model.ResourceKind;
import dev.controlplane.metadata.snapshot.MetadataImage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Each resource of the image in its protobuf wire form, made once and reused by every snapshot that
 * sends the same resource. A snapshot is then mostly copying bytes, which costs little even before
 * the JIT has compiled protobuf's serialisation: the first snapshot after a node starts was four
 * times slower than a warm one while it did that work cold.
 *
 * <p>An entry is valid only for the very object it was made from: images share every unchanged
 * resource and a change replaces the object, so identity means unchanged, and a changed resource is
 * encoded again by the next snapshot that sends it. Snapshots count as passes; when a pass over the
 * latest image completes, entries that no pass since it began has used (deleted or replaced
 * resources) are dropped, so the cache holds about one image's worth of bytes.
 *
 * <p>A node told not to keep them ({@code service.controlplane.snapshot.keep.encoded=false})
 * encodes each resource as it sends it and holds nothing: less memory, slower snapshots.
 *
 * <p>Thread-safe: concurrent snapshots may encode the same resource twice, never wrongly.
 */
final class EncodedResources {

  private static final class Entry {
    final Resource source;
    final byte[] bytes;
    volatile long usedBy;

    Entry(Resource source, byte[] bytes) {
      this.source = source;
      this.bytes = bytes;
    }
  }

  private final List<ConcurrentHashMap<String, Entry>> byKind = new ArrayList<>();
  private final AtomicLong passes = new AtomicLong();
  private final boolean keep;

  EncodedResources(boolean keep) {
    this.keep = keep;
    for (int i = 0; i < ResourceKind.values().length; i++) {
      byKind.add(new ConcurrentHashMap<>());
    }
  }

  /** Starts a pass: the number to give {@link #bytes} and {@link #dropUnusedSince}. */
  long beginPass() {
    return passes.incrementAndGet();
  }

  /** The wire form of {@code resource}'s message, made now unless this object was encoded. */
  byte[] bytes(Resource resource, long pass) {
    if (!keep) {
      return Kinds.message(resource).toByteArray();
    }
    ConcurrentHashMap<String, Entry> map = byKind.get(resource.kind().ordinal());
    String key = resource.key();
    Entry entry = map.get(key);
    if (entry == null || entry.source != resource) {
      entry = new Entry(resource, Kinds.message(resource).toByteArray());
      map.put(key, entry);
    }
    if (entry.usedBy < pass) {
      entry.usedBy = pass;
    }
    return entry.bytes;
  }

  /** Drops the entries no pass numbered {@code pass} or later has used. */
  void dropUnusedSince(long pass) {
    for (ConcurrentHashMap<String, Entry> map : byKind) {
      map.values().removeIf(e -> e.usedBy < pass);
    }
  }

  /** Encodes every resource of {@code image}; returns how many (none when not keeping them). */
  int fill(MetadataImage image) {
    if (!keep) {
      return 0;
    }
    long pass = beginPass();
    int count = 0;
    for (ResourceKind kind : ResourceKind.values()) {
      for (Resource r : image.map(kind).values()) {
        bytes(r, pass);
        count++;
      }
    }
    dropUnusedSince(pass);
    return count;
  }

  boolean keeps() {
    return keep;
  }

  /** How many resources have their wire form kept. */
  int size() {
    return byKind.stream().mapToInt(ConcurrentHashMap::size).sum();
  }
}
