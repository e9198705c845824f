package dev.controlplane.metadata.kind;

import com.google.protobuf.Message;
import dev.controlplane.metadata.model.Broker;
import dev.controlplane.metadata.model.MetadataUpdate;
import dev.controlplane.metadata.model.Resource;
import dev.controlplane.metadata.model.ResourceKind;
import dev.controlplane.metadata.model.Stream;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The one dispatch from a resource kind to its {@link Kind}: the only table of kinds in the code.
 */
public final class Kinds {

  private static final Map<ResourceKind, Kind<?>> BY_KIND = new EnumMap<>(ResourceKind.class);

  static {
    for (Kind<?> k :
        List.of(
            new TenantKind(),
            new NamespaceKind(),
            new StreamKind(),
            new PlacementKind(),
            new BrokerKind(),
            new BridgeKind())) {
      BY_KIND.put(k.kind(), k);
    }
    if (BY_KIND.size() != ResourceKind.values().length) {
      throw new IllegalStateException("a resource kind has no Kind class");
    }
  }

  private Kinds() {}

  public static Kind<?> of(ResourceKind kind) {
    return BY_KIND.get(kind);
  }

  public static Kind<?> of(Resource resource) {
    return BY_KIND.get(resource.kind());
  }

  /** The protobuf form of a log entry. */
  public static dev.controlplane.proto.v1.MetadataUpdate proto(MetadataUpdate update) {
    var builder =
        dev.controlplane.proto.v1.MetadataUpdate.newBuilder()
            .setVersion(update.version())
            .setType(dev.controlplane.proto.v1.UpdateType.valueOf(update.type().name()));
    Kind<?> kind = of(update.resource());
    kind.setOn(builder, kind.message(update.resource()));
    return builder.build();
  }

  public static Message message(Resource resource) {
    return of(resource).message(resource);
  }

  /** The shard list of a placement as its table column stores it. */
  public static List<dev.controlplane.metadata.model.ShardPlacement.ShardAssignment> shards(
      String json) {
    return PlacementKind.readShards(json);
  }

  /** The streams of a bridge as its table column stores them. */
  public static List<dev.controlplane.metadata.model.StreamRef> bridgeStreams(String json) {
    return BridgeKind.readStreams(json);
  }

  public static dev.controlplane.proto.v1.StreamSpec streamSpec(Stream.StreamSpec spec) {
    return StreamKind.spec(spec);
  }

  public static dev.controlplane.proto.v1.BrokerStatus brokerStatus(Broker.Status status) {
    return BrokerKind.status(status);
  }
}
