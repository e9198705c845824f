package dev.controlplane.audit;

import dev.controlplane.metadata.model.MetadataUpdate;
import dev.controlplane.metadata.model.Resource;
import dev.controlplane.metadata.model.ResourceKind;
import java.util.List;
import java.util.Locale;

/**
 * The entry of a write that did not describe itself: derived from its versioned changes. The first
 * change of something other than a placement names the operation (a stream's creation also places
 * it: one operation, one record, the changes counted in {@code metadata.changes}).
 */
public final class AuditEntries {

  private AuditEntries() {}

  public static AuditEntry of(List<MetadataUpdate> updates) {
    // A stream's placement changes with it (created after it, deleted before it): the stream
    // names the operation.
    MetadataUpdate first =
        updates.stream()
            .filter(u -> u.resource().kind() != ResourceKind.SHARD_PLACEMENT)
            .findFirst()
            .orElse(updates.get(0));
    Resource r = first.resource();
    String thing = thing(r.kind());
    String verb = first.type().name().toLowerCase(Locale.ROOT);
    // Brokers and bridges are cluster-wide: no tenant of theirs to file the record under.
    boolean clusterWide = r.kind() == ResourceKind.BROKER || r.kind() == ResourceKind.BRIDGE;
    String[] path = clusterWide ? new String[0] : r.key().split("/", 3);
    AuditEntry entry =
        AuditEntry.of(
                r.kind() == ResourceKind.BROKER ? "broker" : "metadata",
                thing + "." + verb,
                verb,
                path.length > 0 ? path[0] : null)
            .in(path.length > 1 ? path[1] : null, path.length > 2 ? path[2] : null)
            .on(thing + ":" + r.key())
            .with("kind", r.kind().kindName());
    return updates.size() > 1 ? entry.with("changes", updates.size()) : entry;
  }

  private static String thing(ResourceKind kind) {
    return switch (kind) {
      case TENANT -> "tenant";
      case NAMESPACE -> "namespace";
      case STREAM -> "stream";
      case SHARD_PLACEMENT -> "shard_placement";
      case BROKER -> "broker";
      case BRIDGE -> "bridge";
    };
  }
}
