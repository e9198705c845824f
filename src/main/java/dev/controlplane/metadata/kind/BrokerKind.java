package dev.controlplane.metadata.kind;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Message;
import dev.controlplane.metadata.model.Broker;
import dev.controlplane.metadata.model.BrokerLabels;
import dev.controlplane.metadata.model.ResourceKind;
import dev.controlplane.metadata.model.Stream.WireEnum;
import dev.controlplane.proto.v1.BrokerCapacity;
import dev.controlplane.proto.v1.BrokerStatus;
import dev.controlplane.proto.v1.Metadata;
import dev.controlplane.proto.v1.MetadataUpdate;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Pattern;

/** Broker: document fields, the {@code brokers} table and the protobuf {@code Broker}. */
final class BrokerKind extends Kind<Broker> {

  /**
   * A host name or IPv4 address, or an IPv6 address in brackets, then the port: clients split the
   * address at its last colon, so a colon or bracket elsewhere ({@code a:b:80}) gave them a host
   * they could not dial.
   */
  private static final Pattern HOST_PORT =
      Pattern.compile("^(?:[A-Za-z0-9._-]{1,253}|\\[[0-9A-Fa-f:.]{2,45}\\]):[0-9]{1,5}$");

  BrokerKind() {
    super(ResourceKind.BROKER, Broker.class);
  }

  @Override
  public Broker read(JsonNode md, JsonNode doc, FieldReader r) {
    r.rejectUnknown(md, "metadata", Set.of("name", "version"));
    String name = r.name(md, "name", "metadata.name", true);
    JsonNode spec =
        r.object(
            doc,
            "spec",
            "spec",
            true,
            Set.of(
                "address",
                "region",
                "availability_zone",
                "labels",
                "capacity",
                "status",
                "drain_requested"));
    String address = r.string(spec, "address", "spec.address", true);
    if (address != null && !isHostPort(address)) {
      r.error(
          "spec.address",
          "must be host:port (an IPv6 host in brackets) with a port from 1 to 65535");
    }
    String region = text(spec, "region", "spec.region", r);
    String zone = text(spec, "availability_zone", "spec.availability_zone", r);
    SortedMap<String, String> labels = labels(spec, r);
    JsonNode cap =
        r.object(spec, "capacity", "spec.capacity", false, Set.of("max_shards", "max_connections"));
    Long maxShards =
        r.integer(cap, "max_shards", "spec.capacity.max_shards", false, 0, Integer.MAX_VALUE);
    Long maxConn =
        r.integer(
            cap, "max_connections", "spec.capacity.max_connections", false, 0, Integer.MAX_VALUE);
    Broker.Status status =
        r.enumValue(spec, "status", "spec.status", Broker.Status.class, Broker.Status.ACTIVE);
    // Absent in documents written before the field existed: then the status says it.
    Boolean drainRequested = r.bool(spec, "drain_requested", "spec.drain_requested");
    return new Broker(
        name,
        address,
        region,
        zone,
        labels,
        new Broker.Capacity(toInt(maxShards), toInt(maxConn)),
        status,
        drainRequested == null ? status == Broker.Status.DRAINING : drainRequested,
        0);
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

  private static boolean isHostPort(String address) {
    if (!HOST_PORT.matcher(address).matches()) {
      return false;
    }
    int port = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
    return port >= 1 && port <= 65535;
  }

  private static Integer toInt(Long value) {
    return value == null ? null : value.intValue();
  }

  @Override
  protected void write(Broker b, ObjectNode md, ObjectNode doc) {
    md.put("name", b.name());
    ObjectNode spec = doc.putObject("spec");
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
    // Written only when set, as Kubernetes writes a node's unschedulable.
    if (b.drainRequested()) {
      spec.put("drain_requested", true);
    }
  }

  private static final String COLUMNS =
      "name, address, region, availability_zone, labels, max_shards, max_connections, status,"
          + " drain_requested, version";

  @Override
  public String upsertSql() {
    return "INSERT INTO brokers ("
        + COLUMNS
        + ") VALUES (?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET"
        + " address = excluded.address, region = excluded.region,"
        + " availability_zone = excluded.availability_zone, labels = excluded.labels,"
        + " max_shards = excluded.max_shards,"
        + " max_connections = excluded.max_connections, status = excluded.status,"
        + " drain_requested = excluded.drain_requested, version = excluded.version";
  }

  @Override
  protected void bindRow(PreparedStatement ps, Broker b) throws SQLException {
    ps.setString(1, b.name());
    ps.setString(2, b.address());
    ps.setString(3, b.region());
    ps.setString(4, b.availabilityZone());
    ps.setString(5, writeLabels(b.labels()));
    setInt(ps, 6, b.capacity().maxShards());
    setInt(ps, 7, b.capacity().maxConnections());
    ps.setString(8, b.status().wire());
    ps.setBoolean(9, b.drainRequested());
    ps.setLong(10, b.version());
  }

  @Override
  public String deleteSql() {
    return "DELETE FROM brokers WHERE name = ?";
  }

  @Override
  protected void bindKey(PreparedStatement ps, Broker b) throws SQLException {
    ps.setString(1, b.name());
  }

  @Override
  public String selectAllSql() {
    return "SELECT " + COLUMNS.replace("labels", "labels::text AS labels") + " FROM brokers";
  }

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<TreeMap<String, String>> LABELS = new TypeReference<>() {};

  /** The JSON column {@code brokers.labels}: {"rack": "r1"}. */
  private static String writeLabels(SortedMap<String, String> labels) {
    try {
      return JSON.writeValueAsString(labels);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static SortedMap<String, String> readLabels(String json) {
    if (json == null || json.isBlank()) {
      return new TreeMap<>();
    }
    try {
      return JSON.readValue(json, LABELS);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("brokers.labels is not a JSON object of strings", e);
    }
  }

  @Override
  public Broker fromRow(ResultSet rs) throws SQLException {
    return new Broker(
        rs.getString("name"),
        rs.getString("address"),
        rs.getString("region"),
        rs.getString("availability_zone"),
        readLabels(rs.getString("labels")),
        new Broker.Capacity(getInt(rs, "max_shards"), getInt(rs, "max_connections")),
        WireEnum.fromWire(Broker.Status.class, rs.getString("status")).orElseThrow(),
        rs.getBoolean("drain_requested"),
        rs.getLong("version"));
  }

  @Override
  protected Message toProto(Broker b) {
    var capacity = BrokerCapacity.newBuilder();
    if (b.capacity().maxShards() != null) {
      capacity.setMaxShards(b.capacity().maxShards());
    }
    if (b.capacity().maxConnections() != null) {
      capacity.setMaxConnections(b.capacity().maxConnections());
    }
    return dev.controlplane.proto.v1.Broker.newBuilder()
        .setName(b.name())
        .setAddress(b.address())
        .setRegion(b.region())
        .setAvailabilityZone(b.availabilityZone())
        .putAllLabels(b.labels())
        .setCapacity(capacity)
        .setStatus(status(b.status()))
        .setDrainRequested(b.drainRequested())
        .setVersion(b.version())
        .build();
  }

  public static BrokerStatus status(Broker.Status status) {
    return switch (status) {
      case ACTIVE -> BrokerStatus.BROKER_STATUS_ACTIVE;
      case DRAINING -> BrokerStatus.BROKER_STATUS_DRAINING;
      case DOWN -> BrokerStatus.BROKER_STATUS_DOWN;
    };
  }

  @Override
  public int snapshotField() {
    return Metadata.BROKERS_FIELD_NUMBER;
  }

  @Override
  public void setOn(MetadataUpdate.Builder update, Message message) {
    update.setBroker((dev.controlplane.proto.v1.Broker) message);
  }
}
