package dev.controlplane.metadata.kind;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Message;
import dev.controlplane.metadata.model.Bridge;
import dev.controlplane.metadata.model.ResourceKind;
import dev.controlplane.metadata.model.StreamRef;
import dev.controlplane.proto.v1.BridgeEncryption;
import dev.controlplane.proto.v1.BridgeStream;
import dev.controlplane.proto.v1.Metadata;
import dev.controlplane.proto.v1.MetadataUpdate;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Bridge: document fields, the {@code bridges} table (its streams as a JSON array of {@code
 * {"tenant","namespace","stream"}}, the shape of {@code spec.streams}) and the protobuf {@code
 * Bridge}.
 */
final class BridgeKind extends Kind<Bridge> {

  /** The most streams one bridge carries: its document stays well under the body limit. */
  static final int MAX_STREAMS = 1000;

  private static final ObjectMapper MAPPER = new ObjectMapper();

  BridgeKind() {
    super(ResourceKind.BRIDGE, Bridge.class);
  }

  @Override
  public Bridge read(JsonNode md, JsonNode doc, FieldReader r) {
    r.rejectUnknown(md, "metadata", Set.of("name", "version"));
    String name = r.name(md, "name", "metadata.name", true);
    JsonNode spec =
        r.object(
            doc,
            "spec",
            "spec",
            true,
            Set.of("source_region", "target_region", "streams", "encryption"));
    String source = region(spec, "source_region", r);
    String target = region(spec, "target_region", r);
    if (source != null && source.equals(target)) {
      r.error("spec.target_region", "must differ from spec.source_region ('" + source + "')");
    }
    List<StreamRef> streams = streams(spec, r);
    JsonNode encryption = r.object(spec, "encryption", "spec.encryption", false, Set.of("key_id"));
    String keyId = text(encryption, "key_id", "spec.encryption.key_id", r);
    return r.hasErrors() ? null : new Bridge(name, source, target, streams, keyId, 0);
  }

  private static String region(JsonNode spec, String field, FieldReader r) {
    String path = "spec." + field;
    if (r.string(spec, field, path, true) == null) {
      return null;
    }
    String value = text(spec, field, path, r);
    if (value != null && value.isBlank()) {
      r.error(path, "must not be empty");
      return null;
    }
    return value;
  }

  /** {@code spec.streams}: distinct streams by tenant, namespace and name; absent is none. */
  private static List<StreamRef> streams(JsonNode spec, FieldReader r) {
    List<StreamRef> streams = new ArrayList<>();
    JsonNode list = spec.get("streams");
    if (list == null || list.isNull()) {
      return streams;
    }
    if (!list.isArray()) {
      r.error("spec.streams", "must be an array of {tenant, namespace, stream}");
      return streams;
    }
    if (list.size() > MAX_STREAMS) {
      r.error("spec.streams", "must hold at most " + MAX_STREAMS + " streams, not " + list.size());
      return streams;
    }
    Set<StreamRef> seen = new HashSet<>();
    for (int i = 0; i < list.size(); i++) {
      String path = "spec.streams[" + i + "]";
      JsonNode s = list.get(i);
      if (!s.isObject()) {
        r.error(path, "must be an object {tenant, namespace, stream}");
        continue;
      }
      r.rejectUnknown(s, path, Set.of("tenant", "namespace", "stream"));
      String tenant = r.name(s, "tenant", path + ".tenant", true);
      String namespace = r.name(s, "namespace", path + ".namespace", true);
      String stream = r.name(s, "stream", path + ".stream", true);
      if (tenant == null || namespace == null || stream == null) {
        continue;
      }
      StreamRef ref = new StreamRef(tenant, namespace, stream);
      if (!seen.add(ref)) {
        r.error(path, "names stream " + ref + " a second time");
      }
      streams.add(ref);
    }
    return streams;
  }

  @Override
  protected void write(Bridge b, ObjectNode md, ObjectNode doc) {
    md.put("name", b.name());
    ObjectNode spec = doc.putObject("spec");
    spec.put("source_region", b.sourceRegion());
    spec.put("target_region", b.targetRegion());
    writeStreams(b.streams(), spec.putArray("streams"));
    ObjectNode encryption = spec.putObject("encryption");
    if (!b.encryptionKeyId().isEmpty()) {
      encryption.put("key_id", b.encryptionKeyId());
    }
  }

  private static void writeStreams(List<StreamRef> streams, ArrayNode list) {
    for (StreamRef s : streams) {
      list.addObject()
          .put("tenant", s.tenant())
          .put("namespace", s.namespace())
          .put("stream", s.stream());
    }
  }

  private static final String COLUMNS =
      "name, source_region, target_region, streams, encryption_key_id, version";

  @Override
  public String upsertSql() {
    return "INSERT INTO bridges ("
        + COLUMNS
        + ") VALUES (?, ?, ?, ?::jsonb, ?, ?) ON CONFLICT (name) DO UPDATE SET"
        + " source_region = excluded.source_region, target_region = excluded.target_region,"
        + " streams = excluded.streams, encryption_key_id = excluded.encryption_key_id,"
        + " version = excluded.version";
  }

  @Override
  protected void bindRow(PreparedStatement ps, Bridge b) throws SQLException {
    ArrayNode streams = MAPPER.createArrayNode();
    writeStreams(b.streams(), streams);
    ps.setString(1, b.name());
    ps.setString(2, b.sourceRegion());
    ps.setString(3, b.targetRegion());
    ps.setString(4, streams.toString());
    ps.setString(5, b.encryptionKeyId());
    ps.setLong(6, b.version());
  }

  @Override
  public String deleteSql() {
    return "DELETE FROM bridges WHERE name = ?";
  }

  @Override
  protected void bindKey(PreparedStatement ps, Bridge b) throws SQLException {
    ps.setString(1, b.name());
  }

  @Override
  public String selectAllSql() {
    return "SELECT " + COLUMNS.replace("streams", "streams::text AS streams") + " FROM bridges";
  }

  @Override
  public Bridge fromRow(ResultSet rs) throws SQLException {
    return new Bridge(
        rs.getString("name"),
        rs.getString("source_region"),
        rs.getString("target_region"),
        readStreams(rs.getString("streams")),
        rs.getString("encryption_key_id"),
        rs.getLong("version"));
  }

  /** The column {@code bridges.streams} as stream references. */
  static List<StreamRef> readStreams(String json) {
    List<StreamRef> streams = new ArrayList<>();
    try {
      for (JsonNode s : MAPPER.readTree(json)) {
        streams.add(
            new StreamRef(
                s.path("tenant").asText(),
                s.path("namespace").asText(),
                s.path("stream").asText()));
      }
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("bridges.streams is not a JSON array of streams", e);
    }
    return streams;
  }

  @Override
  protected Message toProto(Bridge b) {
    var bridge =
        dev.controlplane.proto.v1.Bridge.newBuilder()
            .setName(b.name())
            .setSourceRegion(b.sourceRegion())
            .setTargetRegion(b.targetRegion())
            .setEncryption(BridgeEncryption.newBuilder().setKeyId(b.encryptionKeyId()))
            .setVersion(b.version());
    for (StreamRef s : b.streams()) {
      bridge.addStreams(
          BridgeStream.newBuilder()
              .setTenant(s.tenant())
              .setNamespace(s.namespace())
              .setStream(s.stream()));
    }
    return bridge.build();
  }

  @Override
  public int snapshotField() {
    return Metadata.BRIDGES_FIELD_NUMBER;
  }

  @Override
  public void setOn(MetadataUpdate.Builder update, Message message) {
    update.setBridge((dev.controlplane.proto.v1.Bridge) message);
  }
}
