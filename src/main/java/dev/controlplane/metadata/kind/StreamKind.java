package dev.controlplane.metadata.kind;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Message;
import dev.controlplane.metadata.model.DurationValue;
import dev.controlplane.metadata.model.ResourceKind;
import dev.controlplane.metadata.model.SizeValue;
import dev.controlplane.metadata.model.Stream;
import dev.controlplane.metadata.model.Stream.AckPolicy;
import dev.controlplane.metadata.model.Stream.Durability;
import dev.controlplane.metadata.model.Stream.Retention;
import dev.controlplane.metadata.model.Stream.StreamSpec;
import dev.controlplane.metadata.model.Stream.WireEnum;
import dev.controlplane.proto.v1.Metadata;
import dev.controlplane.proto.v1.MetadataUpdate;
import dev.controlplane.proto.v1.RetentionPolicy;
import dev.controlplane.proto.v1.StreamStatus;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Set;

/**
 * Stream: document fields, the {@code streams} table (whose purge schedule, {@code deleted_at} and
 * {@code purge_after}, the upsert leaves alone) and the protobuf {@code Stream}.
 */
final class StreamKind extends Kind<Stream> {

  /**
   * Bounds the spec leaves open (docs/api.md): generous, but a typo cannot ask for a million
   * shards.
   */
  static final int MAX_SHARDS = 1024;

  static final int MAX_REPLICATION_FACTOR = 16;

  StreamKind() {
    super(ResourceKind.STREAM, Stream.class);
  }

  @Override
  public Stream read(JsonNode md, JsonNode doc, FieldReader r) {
    r.rejectUnknown(md, "metadata", Set.of("name", "namespace", "tenant", "version"));
    String tenant = r.name(md, "tenant", "metadata.tenant", true);
    String namespace = r.name(md, "namespace", "metadata.namespace", true);
    String name = r.name(md, "name", "metadata.name", true);
    JsonNode spec =
        r.object(
            doc,
            "spec",
            "spec",
            true,
            Set.of("shards", "retention", "durability", "replication_factor", "ack_policy"));
    Long shards = r.integer(spec, "shards", "spec.shards", true, 1, MAX_SHARDS);
    JsonNode ret = r.object(spec, "retention", "spec.retention", false, Set.of("time", "size"));
    DurationValue time = r.duration(ret, "time", "spec.retention.time");
    SizeValue size = r.size(ret, "size", "spec.retention.size");
    Durability durability =
        r.enumValue(spec, "durability", "spec.durability", Durability.class, Durability.DURABLE);
    Long rf =
        r.integer(
            spec,
            "replication_factor",
            "spec.replication_factor",
            false,
            1,
            MAX_REPLICATION_FACTOR);
    AckPolicy ack =
        r.enumValue(spec, "ack_policy", "spec.ack_policy", AckPolicy.class, AckPolicy.QUORUM);
    Stream.State state = Stream.State.ACTIVE;
    JsonNode status = doc.get("status");
    if (status != null && status.has("state")) {
      state =
          WireEnum.fromWire(Stream.State.class, status.get("state").asText())
              .orElse(Stream.State.ACTIVE);
    }
    if (r.hasErrors()) {
      return null;
    }
    StreamSpec streamSpec =
        new StreamSpec(
            shards.intValue(),
            new Retention(time, size),
            durability,
            rf == null ? 1 : rf.intValue(),
            ack);
    return new Stream(tenant, namespace, name, streamSpec, state, 0);
  }

  @Override
  protected void write(Stream s, ObjectNode md, ObjectNode doc) {
    md.put("name", s.name());
    md.put("namespace", s.namespace());
    md.put("tenant", s.tenant());
    ObjectNode spec = doc.putObject("spec");
    spec.put("shards", s.spec().shards());
    ObjectNode ret = spec.putObject("retention");
    if (s.spec().retention().time() != null) {
      ret.put("time", s.spec().retention().time().text());
    }
    if (s.spec().retention().size() != null) {
      ret.put("size", s.spec().retention().size().text());
    }
    spec.put("durability", s.spec().durability().wire());
    spec.put("replication_factor", s.spec().replicationFactor());
    spec.put("ack_policy", s.spec().ackPolicy().wire());
    doc.putObject("status").put("state", s.state().wire());
  }

  private static final String COLUMNS =
      "tenant, namespace, name, shards, retention_time, retention_ms, retention_size,"
          + " retention_bytes, durability, replication_factor, ack_policy, state, version";

  @Override
  public String upsertSql() {
    return "INSERT INTO streams ("
        + COLUMNS
        + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        + " ON CONFLICT (tenant, namespace, name) DO UPDATE SET shards = excluded.shards,"
        + " retention_time = excluded.retention_time, retention_ms = excluded.retention_ms,"
        + " retention_size = excluded.retention_size,"
        + " retention_bytes = excluded.retention_bytes, durability = excluded.durability,"
        + " replication_factor = excluded.replication_factor,"
        + " ack_policy = excluded.ack_policy, state = excluded.state, version = excluded.version";
  }

  @Override
  protected void bindRow(PreparedStatement ps, Stream s) throws SQLException {
    Retention retention = s.spec().retention();
    ps.setString(1, s.tenant());
    ps.setString(2, s.namespace());
    ps.setString(3, s.name());
    ps.setInt(4, s.spec().shards());
    ps.setString(5, retention.time() == null ? null : retention.time().text());
    setLong(ps, 6, retention.time() == null ? null : retention.time().millis());
    ps.setString(7, retention.size() == null ? null : retention.size().text());
    setLong(ps, 8, retention.size() == null ? null : retention.size().bytes());
    ps.setString(9, s.spec().durability().wire());
    ps.setInt(10, s.spec().replicationFactor());
    ps.setString(11, s.spec().ackPolicy().wire());
    ps.setString(12, s.state().wire());
    ps.setLong(13, s.version());
  }

  @Override
  public String deleteSql() {
    return "DELETE FROM streams WHERE tenant = ? AND namespace = ? AND name = ?";
  }

  @Override
  protected void bindKey(PreparedStatement ps, Stream s) throws SQLException {
    ps.setString(1, s.tenant());
    ps.setString(2, s.namespace());
    ps.setString(3, s.name());
  }

  @Override
  public String selectAllSql() {
    return "SELECT " + COLUMNS + ", purge_after FROM streams";
  }

  @Override
  public Stream fromRow(ResultSet rs) throws SQLException {
    String time = rs.getString("retention_time");
    String size = rs.getString("retention_size");
    var retention =
        new Retention(
            time == null ? null : new DurationValue(time, rs.getLong("retention_ms")),
            size == null ? null : new SizeValue(size, rs.getLong("retention_bytes")));
    var spec =
        new StreamSpec(
            rs.getInt("shards"),
            retention,
            WireEnum.fromWire(Durability.class, rs.getString("durability")).orElseThrow(),
            rs.getInt("replication_factor"),
            WireEnum.fromWire(AckPolicy.class, rs.getString("ack_policy")).orElseThrow());
    return new Stream(
        rs.getString("tenant"),
        rs.getString("namespace"),
        rs.getString("name"),
        spec,
        WireEnum.fromWire(Stream.State.class, rs.getString("state")).orElseThrow(),
        rs.getLong("version"));
  }

  @Override
  protected Message toProto(Stream s) {
    return dev.controlplane.proto.v1.Stream.newBuilder()
        .setTenant(s.tenant())
        .setNamespace(s.namespace())
        .setName(s.name())
        .setSpec(spec(s.spec()))
        .setStatus(
            s.state() == Stream.State.ACTIVE
                ? StreamStatus.STREAM_STATUS_ACTIVE
                : StreamStatus.STREAM_STATUS_DELETING)
        .setVersion(s.version())
        .build();
  }

  /** The protobuf spec of a stream (ListStreams shows it too). */
  public static dev.controlplane.proto.v1.StreamSpec spec(StreamSpec spec) {
    var retention = RetentionPolicy.newBuilder();
    if (spec.retention().time() != null) {
      retention.setTime(spec.retention().time().text()).setTimeMs(spec.retention().time().millis());
    }
    if (spec.retention().size() != null) {
      retention
          .setSize(spec.retention().size().text())
          .setSizeInBytes(spec.retention().size().bytes());
    }
    return dev.controlplane.proto.v1.StreamSpec.newBuilder()
        .setShards(spec.shards())
        .setRetention(retention)
        .setDurability(
            spec.durability() == Durability.DURABLE
                ? dev.controlplane.proto.v1.Durability.DURABILITY_DURABLE
                : dev.controlplane.proto.v1.Durability.DURABILITY_EPHEMERAL)
        .setReplicationFactor(spec.replicationFactor())
        .setAckPolicy(
            spec.ackPolicy() == AckPolicy.QUORUM
                ? dev.controlplane.proto.v1.AckPolicy.ACK_POLICY_QUORUM
                : dev.controlplane.proto.v1.AckPolicy.ACK_POLICY_LEADER_ONLY)
        .build();
  }

  @Override
  public int snapshotField() {
    return Metadata.STREAMS_FIELD_NUMBER;
  }

  @Override
  public void setOn(MetadataUpdate.Builder update, Message message) {
    update.setStream((dev.controlplane.proto.v1.Stream) message);
  }
}
