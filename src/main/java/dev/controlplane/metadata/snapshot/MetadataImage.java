package dev.controlplane.metadata.snapshot;

import dev.controlplane.metadata.model.MetadataUpdate;
import dev.controlplane.metadata.model.Resource;
import dev.controlplane.metadata.model.ResourceId;
import dev.controlplane.metadata.model.ResourceKind;
import dev.controlplane.metadata.model.UpdateType;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The metadata as a broker sees it at one version: every resource by identity. {@link #replay}
 * moves it forward by one update and {@link #undo} moves it back, so an image at any retained
 * version can be reached from any other.
 *
 * <p>Not thread-safe: an image is built by one thread and then only read.
 */
public final class MetadataImage {

  private final TreeMap<ResourceId, Resource> resources = new TreeMap<>();
  private long version;

  public MetadataImage(long version, Collection<? extends Resource> current) {
    this.version = version;
    current.forEach(r -> resources.put(r.id(), r));
  }

  public static MetadataImage empty() {
    return new MetadataImage(0, List.of());
  }

  public long version() {
    return version;
  }

  /** Applies the update that follows this image's version. */
  public void replay(MetadataUpdate update) {
    if (update.version() != version + 1) {
      throw new IllegalStateException(
          "update " + update.version() + " does not follow version " + version);
    }
    if (update.type() == UpdateType.DELETE) {
      resources.remove(update.resource().id());
    } else {
      resources.put(update.resource().id(), update.resource());
    }
    version = update.version();
  }

  /** Reverts the update that produced this image's version. */
  public void undo(MetadataUpdate update) {
    if (update.version() != version) {
      throw new IllegalStateException(
          "update " + update.version() + " is not the last of version " + version);
    }
    if (update.type() == UpdateType.CREATE) {
      resources.remove(update.resource().id());
    } else {
      resources.put(update.previous().id(), update.previous());
    }
    version = update.version() - 1;
  }

  /** The resources of one kind, ordered by key. */
  public List<Resource> ofKind(ResourceKind kind) {
    return resources
        .subMap(new ResourceId(kind, ""), true, new ResourceId(kind, "\uffff"), true)
        .values()
        .stream()
        .toList();
  }

  public Map<ResourceId, Resource> asMap() {
    return java.util.Collections.unmodifiableMap(resources);
  }

  public int size() {
    return resources.size();
  }
}
