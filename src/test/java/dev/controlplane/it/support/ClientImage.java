package dev.controlplane.it.support;

import com.google.protobuf.Message;
import dev.controlplane.proto.v1.GetSnapshotRequest;
import dev.controlplane.proto.v1.GetSnapshotResponse;
import dev.controlplane.proto.v1.Metadata;
import dev.controlplane.proto.v1.MetadataServiceGrpc;
import dev.controlplane.proto.v1.MetadataUpdate;
import dev.controlplane.proto.v1.UpdateType;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a broker holds: the metadata applied from a snapshot and then from updates, exactly as spec
 * section 4 describes the broker lifecycle. Refuses an update that does not follow its version.
 */
public final class ClientImage {

  private final TreeMap<String, Message> resources = new TreeMap<>();
  private long version;

  public static ClientImage snapshot(
      MetadataServiceGrpc.MetadataServiceBlockingStub stub, long atVersion) {
    ClientImage image = new ClientImage();
    Iterator<GetSnapshotResponse> chunks =
        stub.getSnapshot(GetSnapshotRequest.newBuilder().setVersion(atVersion).build());
    boolean last = false;
    int expectedChunk = 0;
    while (chunks.hasNext()) {
      GetSnapshotResponse chunk = chunks.next();
      if (chunk.getChunk() != expectedChunk++) {
        throw new AssertionError("chunk " + chunk.getChunk() + " out of order");
      }
      image.version = chunk.getVersion();
      image.addAll(chunk.getMetadata());
      last = chunk.getLast();
    }
    if (!last) {
      throw new AssertionError("snapshot ended without its last chunk");
    }
    return image;
  }

  private void addAll(Metadata m) {
    m.getTenantsList().forEach(t -> resources.put("Tenant " + t.getName(), t));
    m.getNamespacesList()
        .forEach(n -> resources.put("Namespace " + n.getTenant() + "/" + n.getName(), n));
    m.getStreamsList()
        .forEach(
            s ->
                resources.put(
                    "Stream " + s.getTenant() + "/" + s.getNamespace() + "/" + s.getName(), s));
    m.getPlacementsList()
        .forEach(
            p ->
                resources.put(
                    "ShardPlacement "
                        + p.getTenant()
                        + "/"
                        + p.getNamespace()
                        + "/"
                        + p.getStream(),
                    p));
    m.getBrokersList().forEach(b -> resources.put("Broker " + b.getName(), b));
  }

  public void apply(MetadataUpdate update) {
    if (update.getPayloadCase() == MetadataUpdate.PayloadCase.PAYLOAD_NOT_SET) {
      if (update.getVersion() < version) {
        throw new AssertionError(
            "progress notice " + update.getVersion() + " behind applied version " + version);
      }
      return;
    }
    if (update.getVersion() != version + 1) {
      throw new AssertionError(
          "update " + update.getVersion() + " does not follow version " + version);
    }
    String key = key(update);
    if (update.getType() == UpdateType.DELETE) {
      if (resources.remove(key) == null) {
        throw new AssertionError("DELETE of unknown " + key + " at " + update.getVersion());
      }
    } else {
      resources.put(key, payload(update));
    }
    version = update.getVersion();
  }

  public static String key(MetadataUpdate u) {
    return switch (u.getPayloadCase()) {
      case TENANT -> "Tenant " + u.getTenant().getName();
      case NAMESPACE ->
          "Namespace " + u.getNamespace().getTenant() + "/" + u.getNamespace().getName();
      case STREAM ->
          "Stream "
              + u.getStream().getTenant()
              + "/"
              + u.getStream().getNamespace()
              + "/"
              + u.getStream().getName();
      case PLACEMENT ->
          "ShardPlacement "
              + u.getPlacement().getTenant()
              + "/"
              + u.getPlacement().getNamespace()
              + "/"
              + u.getPlacement().getStream();
      case BROKER -> "Broker " + u.getBroker().getName();
      default -> throw new AssertionError("no payload");
    };
  }

  private static Message payload(MetadataUpdate u) {
    return switch (u.getPayloadCase()) {
      case TENANT -> u.getTenant();
      case NAMESPACE -> u.getNamespace();
      case STREAM -> u.getStream();
      case PLACEMENT -> u.getPlacement();
      case BROKER -> u.getBroker();
      default -> throw new AssertionError("no payload");
    };
  }

  public long version() {
    return version;
  }

  public Map<String, Message> resources() {
    return resources;
  }

  public int size() {
    return resources.size();
  }
}
