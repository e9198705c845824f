package dev.controlplane.metadata.kind;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Message;
import dev.controlplane.metadata.model.Names;
import dev.controlplane.metadata.model.ResourceKind;
import dev.controlplane.metadata.model.ShardPlacement;
import dev.controlplane.metadata.model.ShardPlacement.ShardAssignment;
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
 * ShardPlacement: document fields, the {@code shard_placements} table (the shard list as a JSON
 * array, the same shape as {@code spec.placements}) and the protobuf {@code ShardPlacement}.
 */
final class PlacementKind extends Kind<ShardPlacement> {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  PlacementKind() {
    super(ResourceKind.SHARD_PLACEMENT, ShardPlacement.class);
  }

  @Override
  public ShardPlacement read(JsonNode md, JsonNode doc, FieldReader r) {
    r.rejectUnknown(md, "metadata", Set.of("stream", "namespace", "tenant", "version"));
    String tenant = r.name(md, "tenant", "metadata.tenant", true);
    String namespace = r.name(md, "namespace", "metadata.namespace", true);
    String stream = r.name(md, "stream", "metadata.stream", true);
    JsonNode spec = r.object(doc, "spec", "spec", true, Set.of("placements"));
    JsonNode list = spec.get("placements");
    List<ShardAssignment> assignments = new ArrayList<>();
    if (list == null || !list.isArray()) {
      r.error("spec.placements", "must be an array");
    } else {
      for (int i = 0; i < list.size(); i++) {
        assignments.add(readAssignment(list.get(i), "spec.placements[" + i + "]", r));
      }
    }
    return r.hasErrors() ? null : new ShardPlacement(tenant, namespace, stream, assignments, 0);
  }

  private static ShardAssignment readAssignment(JsonNode node, String path, FieldReader r) {
    ObjectNode holder = MAPPER.createObjectNode();
    if (node != null) {
      holder.set("x", node);
    }
    JsonNode a = r.object(holder, "x", path, true, Set.of("shard_id", "leader", "replicas"));
    Long shardId = r.integer(a, "shard_id", path + ".shard_id", true, 0, StreamKind.MAX_SHARDS - 1);
    String leader = r.name(a, "leader", path + ".leader", true);
    List<String> replicas = new ArrayList<>();
    JsonNode reps = a.get("replicas");
    if (reps == null || !reps.isArray() || reps.isEmpty()) {
      r.error(path + ".replicas", "must be a non-empty array of broker names");
    } else {
      Set<String> seen = new HashSet<>();
      for (JsonNode rep : reps) {
        if (!rep.isTextual() || !Names.isValid(rep.textValue()) || !seen.add(rep.textValue())) {
          r.error(path + ".replicas", "must hold distinct broker names");
        } else {
          replicas.add(rep.textValue().intern());
        }
      }
      if (leader != null && !replicas.contains(leader)) {
        r.error(path + ".leader", "must be one of the replicas");
      }
    }
    return shardId == null
        ? null
        : new ShardAssignment(
            shardId.intValue(), leader == null ? null : leader.intern(), replicas);
  }

  @Override
  protected void write(ShardPlacement p, ObjectNode md, ObjectNode doc) {
    md.put("stream", p.stream());
    md.put("namespace", p.namespace());
    md.put("tenant", p.tenant());
    writeShards(p.placements(), doc.putObject("spec").putArray("placements"));
  }

  private static void writeShards(List<ShardAssignment> shards, ArrayNode list) {
    for (ShardAssignment a : shards) {
      ObjectNode o = list.addObject();
      o.put("shard_id", a.shardId());
      o.put("leader", a.leader());
      ArrayNode reps = o.putArray("replicas");
      a.replicas().forEach(reps::add);
    }
  }

  @Override
  public String upsertSql() {
    return "INSERT INTO shard_placements (tenant, namespace, stream, placements, version)"
        + " VALUES (?, ?, ?, ?::jsonb, ?) ON CONFLICT (tenant, namespace, stream) DO UPDATE SET"
        + " placements = excluded.placements, version = excluded.version";
  }

  @Override
  protected void bindRow(PreparedStatement ps, ShardPlacement p) throws SQLException {
    ArrayNode shards = MAPPER.createArrayNode();
    writeShards(p.placements(), shards);
    ps.setString(1, p.tenant());
    ps.setString(2, p.namespace());
    ps.setString(3, p.stream());
    ps.setString(4, shards.toString());
    ps.setLong(5, p.version());
  }

  @Override
  public String deleteSql() {
    return "DELETE FROM shard_placements WHERE tenant = ? AND namespace = ? AND stream = ?";
  }

  @Override
  protected void bindKey(PreparedStatement ps, ShardPlacement p) throws SQLException {
    ps.setString(1, p.tenant());
    ps.setString(2, p.namespace());
    ps.setString(3, p.stream());
  }

  @Override
  public String selectAllSql() {
    return "SELECT tenant, namespace, stream, placements::text AS placements, version"
        + " FROM shard_placements";
  }

  @Override
  public ShardPlacement fromRow(ResultSet rs) throws SQLException {
    return new ShardPlacement(
        rs.getString("tenant"),
        rs.getString("namespace"),
        rs.getString("stream"),
        readShards(rs.getString("placements")),
        rs.getLong("version"));
  }

  /** The JSON column: [{"shard_id":0,"leader":"b1","replicas":["b1","b2"]}]. */
  public static List<ShardAssignment> readShards(String json) {
    try {
      List<ShardAssignment> out = new ArrayList<>();
      for (JsonNode o : MAPPER.readTree(json)) {
        List<String> replicas = new ArrayList<>();
        // Broker names repeat across millions of replicas: one String per name keeps the image
        // small.
        o.get("replicas").forEach(r -> replicas.add(r.asText().intern()));
        out.add(
            new ShardAssignment(
                o.get("shard_id").asInt(), o.get("leader").asText().intern(), replicas));
      }
      return out;
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("shard_placements.placements is not JSON", e);
    }
  }

  @Override
  protected Message toProto(ShardPlacement p) {
    var builder =
        dev.controlplane.proto.v1.ShardPlacement.newBuilder()
            .setTenant(p.tenant())
            .setNamespace(p.namespace())
            .setStream(p.stream())
            .setVersion(p.version());
    for (ShardAssignment a : p.placements()) {
      builder.addPlacements(
          dev.controlplane.proto.v1.ShardAssignment.newBuilder()
              .setShardId(a.shardId())
              .setLeader(a.leader())
              .addAllReplicas(a.replicas()));
    }
    return builder.build();
  }

  @Override
  public int snapshotField() {
    return Metadata.PLACEMENTS_FIELD_NUMBER;
  }

  @Override
  public void setOn(MetadataUpdate.Builder update, Message message) {
    update.setPlacement((dev.controlplane.proto.v1.ShardPlacement) message);
  }
}
