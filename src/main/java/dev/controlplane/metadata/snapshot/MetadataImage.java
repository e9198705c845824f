package dev.controlplane.metadata.snapshot;

import dev.controlplane.metadata.model.Bridge;
import dev.controlplane.metadata.model.Broker;
import dev.controlplane.metadata.model.MetadataUpdate;
import dev.controlplane.metadata.model.Namespace;
import dev.controlplane.metadata.model.Resource;
import dev.controlplane.metadata.model.ResourceId;
import dev.controlplane.metadata.model.ResourceKind;
import dev.controlplane.metadata.model.ShardPlacement;
import dev.controlplane.metadata.model.Stream;
import dev.controlplane.metadata.model.StreamRef;
import dev.controlplane.metadata.model.Tenant;
import dev.controlplane.metadata.model.UpdateType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.pcollections.TreePMap;

/**
 * The metadata as brokers see it at one version: every resource by kind and key. Immutable, like
 * Kafka's {@code MetadataImage}: {@link #replay} returns the image one version later and {@link
 * #undo} the one before, sharing every unchanged part (persistent maps, O(log n) per change), so an
 * image can be handed to any number of readers while the next one is built.
 *
 * <h2>Determinism</h2>
 *
 * An image is a function of the change log: replaying the updates {@code 1..v} onto the empty image
 * gives the image at {@code v}, and undoing {@code v..w+1} from it gives the image at {@code w}.
 * Resources of a kind are ordered by key, kinds in {@link ResourceKind} order, so snapshots are
 * deterministic.
 *
 * <h2>Thread safety</h2>
 *
 * Immutable, hence safe to share between threads.
 */
public final class MetadataImage {

  private static final MetadataImage EMPTY = new MetadataImage(0, emptyKinds());

  private final long version;
  private final List<TreePMap<String, Resource>> kinds;

  private MetadataImage(long version, List<TreePMap<String, Resource>> kinds) {
    this.version = version;
    this.kinds = kinds;
  }

  /** An image of {@code current} at {@code version}. */
  public static MetadataImage of(long version, Collection<? extends Resource> current) {
    List<TreeMap<String, Resource>> sorted = new ArrayList<>();
    for (int i = 0; i < ResourceKind.values().length; i++) {
      sorted.add(new TreeMap<>());
    }
    current.forEach(r -> sorted.get(r.kind().ordinal()).put(r.key(), r));
    List<TreePMap<String, Resource>> maps = new ArrayList<>();
    sorted.forEach(m -> maps.add(TreePMap.fromSortedMap(m)));
    return new MetadataImage(version, List.copyOf(maps));
  }

  public static MetadataImage empty() {
    return EMPTY;
  }

  private static List<TreePMap<String, Resource>> emptyKinds() {
    List<TreePMap<String, Resource>> maps = new ArrayList<>();
    for (int i = 0; i < ResourceKind.values().length; i++) {
      maps.add(TreePMap.empty());
    }
    return List.copyOf(maps);
  }

  public long version() {
    return version;
  }

  /** The image after {@code update}, which must be the next version. */
  public MetadataImage replay(MetadataUpdate update) {
    if (update.version() != version + 1) {
      throw new IllegalStateException(
          "update " + update.version() + " does not follow version " + version);
    }
    Resource r = update.resource();
    return update.type() == UpdateType.DELETE
        ? with(r.kind(), map(r.kind()).minus(r.key()), update.version())
        : with(r.kind(), map(r.kind()).plus(r.key(), r), update.version());
  }

  /** The image before {@code update}, which must be the one that produced this version. */
  public MetadataImage undo(MetadataUpdate update) {
    if (update.version() != version) {
      throw new IllegalStateException(
          "update " + update.version() + " is not the last of version " + version);
    }
    Resource r = update.resource();
    if (update.type() == UpdateType.CREATE) {
      return with(r.kind(), map(r.kind()).minus(r.key()), version - 1);
    }
    Resource p = update.previous();
    return with(p.kind(), map(p.kind()).plus(p.key(), p), version - 1);
  }

  private MetadataImage with(ResourceKind kind, TreePMap<String, Resource> map, long newVersion) {
    List<TreePMap<String, Resource>> next = new ArrayList<>(kinds);
    next.set(kind.ordinal(), map);
    return new MetadataImage(newVersion, Collections.unmodifiableList(next));
  }

  /** The resources of one kind by key, in key order (a persistent map: never changes). */
  public TreePMap<String, Resource> map(ResourceKind kind) {
    return kinds.get(kind.ordinal());
  }

  /** The resources of one kind, ordered by key. */
  public List<Resource> ofKind(ResourceKind kind) {
    return new ArrayList<>(map(kind).values());
  }

  /** The resources of one kind whose key starts with {@code prefix + "/"}, in key order. */
  public Collection<Resource> under(ResourceKind kind, String prefix) {
    return map(kind).subMap(prefix + "/", prefix + "/\uffff").values();
  }

  public Optional<Tenant> tenant(String name) {
    return Optional.ofNullable((Tenant) map(ResourceKind.TENANT).get(name));
  }

  public Optional<Namespace> namespace(String tenant, String name) {
    return Optional.ofNullable((Namespace) map(ResourceKind.NAMESPACE).get(tenant + "/" + name));
  }

  /** The active stream (a deleted one is not part of the image). */
  public Optional<Stream> stream(StreamRef ref) {
    return Optional.ofNullable((Stream) map(ResourceKind.STREAM).get(ref.key()));
  }

  public Optional<ShardPlacement> placement(StreamRef ref) {
    return Optional.ofNullable((ShardPlacement) map(ResourceKind.SHARD_PLACEMENT).get(ref.key()));
  }

  public Optional<Broker> broker(String name) {
    return Optional.ofNullable((Broker) map(ResourceKind.BROKER).get(name));
  }

  @SuppressWarnings("unchecked")
  public Collection<Broker> brokers() {
    return (Collection<Broker>) (Collection<?>) map(ResourceKind.BROKER).values();
  }

  public Optional<Bridge> bridge(String name) {
    return Optional.ofNullable((Bridge) map(ResourceKind.BRIDGE).get(name));
  }

  /** The names of the bridges that carry {@code ref}, in name order. */
  public List<String> bridgesCarrying(StreamRef ref) {
    List<String> names = new ArrayList<>();
    for (Resource r : map(ResourceKind.BRIDGE).values()) {
      if (((Bridge) r).streams().contains(ref)) {
        names.add(r.key());
      }
    }
    return names;
  }

  @SuppressWarnings("unchecked")
  public Collection<ShardPlacement> placements() {
    return (Collection<ShardPlacement>) (Collection<?>) map(ResourceKind.SHARD_PLACEMENT).values();
  }

  /** Every resource by identity (a copy, for tests and comparisons). */
  public Map<ResourceId, Resource> asMap() {
    TreeMap<ResourceId, Resource> all = new TreeMap<>();
    for (ResourceKind kind : ResourceKind.values()) {
      map(kind).values().forEach(r -> all.put(r.id(), r));
    }
    return Collections.unmodifiableMap(all);
  }

  public int size() {
    int n = 0;
    for (TreePMap<String, Resource> m : kinds) {
      n += m.size();
    }
    return n;
  }
}
