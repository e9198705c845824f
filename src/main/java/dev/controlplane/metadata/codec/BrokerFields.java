package dev.controlplane.metadata.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.controlplane.metadata.model.Broker;
import dev.controlplane.metadata.model.BrokerLabels;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Pattern;

/** The Broker document's fields (split from {@link ResourceFields} to keep both readable). */
final class BrokerFields {

  private static final Pattern HOST_PORT =
      Pattern.compile("^[A-Za-z0-9._:\\[\\]-]{1,253}:[0-9]{1,5}$");

  private BrokerFields() {}

  static Broker read(JsonNode md, JsonNode doc, FieldReader r) {
    r.rejectUnknown(md, "metadata", Set.of("name", "version"));
    String name = r.name(md, "name", "metadata.name", true);
    JsonNode spec =
        r.object(
            doc,
            "spec",
            "spec",
            true,
            Set.of("address", "region", "availability_zone", "labels", "capacity", "status"));
    String address = r.string(spec, "address", "spec.address", true);
    if (address != null && !isHostPort(address)) {
      r.error("spec.address", "must be host:port with a port from 1 to 65535");
    }
    String region = ResourceFields.text(spec, "region", "spec.region", r);
    String zone = ResourceFields.text(spec, "availability_zone", "spec.availability_zone", r);
    java.util.SortedMap<String, String> labels = labels(spec, r);
    JsonNode cap =
        r.object(spec, "capacity", "spec.capacity", false, Set.of("max_shards", "max_connections"));
    Long maxShards =
        r.integer(cap, "max_shards", "spec.capacity.max_shards", false, 0, Integer.MAX_VALUE);
    Long maxConn =
        r.integer(
            cap, "max_connections", "spec.capacity.max_connections", false, 0, Integer.MAX_VALUE);
    Broker.Status status =
        r.enumValue(spec, "status", "spec.status", Broker.Status.class, Broker.Status.ACTIVE);
    return new Broker(
        name,
        address,
        region,
        zone,
        labels,
        new Broker.Capacity(ResourceFields.toInt(maxShards), ResourceFields.toInt(maxConn)),
        status,
        0);
  }

  static void write(Broker b, ObjectNode md, ObjectNode spec) {
    md.put("name", b.name());
    spec.put("address", b.address());
    spec.put("region", b.region());
    spec.put("availability_zone", b.availabilityZone());
    ObjectNode labels = spec.putObject("labels");
    b.labels().forEach(labels::put);
    ObjectNode cap = spec.putObject("capacity");
    if (b.capacity().maxShards() != null) {
      cap.put("max_shards", b.capacity().maxShards());
    }
    if (b.capacity().maxConnections() != null) {
      cap.put("max_connections", b.capacity().maxConnections());
    }
    spec.put("status", b.status().wire());
  }

  /** {@code spec.labels}: an object of strings within the bounds of {@link BrokerLabels}. */
  private static SortedMap<String, String> labels(JsonNode spec, FieldReader r) {
    SortedMap<String, String> labels = new TreeMap<>();
    JsonNode node = spec.get("labels");
    if (node == null || node.isNull()) {
      return labels;
    }
    if (!node.isObject()) {
      r.error("spec.labels", "must be an object of strings");
      return labels;
    }
    node.fields()
        .forEachRemaining(
            e -> {
              if (e.getValue().isTextual()) {
                labels.put(e.getKey(), e.getValue().textValue());
              } else {
                r.error("spec.labels." + e.getKey(), "must be a string");
              }
            });
    BrokerLabels.validate(
        labels,
        (key, message) -> r.error(key.isEmpty() ? "spec.labels" : "spec.labels." + key, message));
    return labels;
  }

  /** Validates a broker address the way documents do, for the gRPC registration path. */
  static boolean isHostPort(String address) {
    if (address == null || !HOST_PORT.matcher(address).matches()) {
      return false;
    }
    int port = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
    return port >= 1 && port <= 65535;
  }
}
