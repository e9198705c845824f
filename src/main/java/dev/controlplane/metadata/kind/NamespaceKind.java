package dev.controlplane.metadata.kind;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Message;
import dev.controlplane.metadata.model.Namespace;
import dev.controlplane.metadata.model.ResourceKind;
import dev.controlplane.proto.v1.Metadata;
import dev.controlplane.proto.v1.MetadataUpdate;
import dev.controlplane.proto.v1.NamespaceQuotas;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Set;

/** Namespace: document fields, the {@code namespaces} table and the protobuf {@code Namespace}. */
final class NamespaceKind extends Kind<Namespace> {

  NamespaceKind() {
    super(ResourceKind.NAMESPACE, Namespace.class);
  }

  @Override
  public Namespace read(JsonNode md, JsonNode doc, FieldReader r) {
    r.rejectUnknown(md, "metadata", Set.of("name", "tenant", "version"));
    String tenant = r.name(md, "tenant", "metadata.tenant", true);
    String name = r.name(md, "name", "metadata.name", true);
    JsonNode spec = r.object(doc, "spec", "spec", false, Set.of("description", "quotas"));
    String description = text(spec, "description", "spec.description", r);
    JsonNode quotas =
        r.object(spec, "quotas", "spec.quotas", false, Set.of("max_streams", "max_publish_rate"));
    Long maxStreams =
        r.integer(quotas, "max_streams", "spec.quotas.max_streams", false, 0, Long.MAX_VALUE);
    Long maxRate =
        r.integer(
            quotas, "max_publish_rate", "spec.quotas.max_publish_rate", false, 0, Long.MAX_VALUE);
    return new Namespace(
        tenant, name, description, new Namespace.NamespaceQuotas(maxStreams, maxRate), 0);
  }

  @Override
  protected void write(Namespace n, ObjectNode md, ObjectNode doc) {
    md.put("name", n.name());
    md.put("tenant", n.tenant());
    ObjectNode spec = doc.putObject("spec");
    spec.put("description", n.description());
    ObjectNode q = spec.putObject("quotas");
    putIfSet(q, "max_streams", n.quotas().maxStreams());
    putIfSet(q, "max_publish_rate", n.quotas().maxPublishRate());
  }

  private static final String COLUMNS =
      "tenant, name, description, max_streams, max_publish_rate, version";

  @Override
  public String upsertSql() {
    return "INSERT INTO namespaces ("
        + COLUMNS
        + ") VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (tenant, name) DO UPDATE SET"
        + " description = excluded.description, max_streams = excluded.max_streams,"
        + " max_publish_rate = excluded.max_publish_rate, version = excluded.version";
  }

  @Override
  protected void bindRow(PreparedStatement ps, Namespace n) throws SQLException {
    ps.setString(1, n.tenant());
    ps.setString(2, n.name());
    ps.setString(3, n.description());
    setLong(ps, 4, n.quotas().maxStreams());
    setLong(ps, 5, n.quotas().maxPublishRate());
    ps.setLong(6, n.version());
  }

  @Override
  public String deleteSql() {
    return "DELETE FROM namespaces WHERE tenant = ? AND name = ?";
  }

  @Override
  protected void bindKey(PreparedStatement ps, Namespace n) throws SQLException {
    ps.setString(1, n.tenant());
    ps.setString(2, n.name());
  }

  @Override
  public String selectAllSql() {
    return "SELECT " + COLUMNS + " FROM namespaces";
  }

  @Override
  public Namespace fromRow(ResultSet rs) throws SQLException {
    return new Namespace(
        rs.getString("tenant"),
        rs.getString("name"),
        rs.getString("description"),
        new Namespace.NamespaceQuotas(getLong(rs, "max_streams"), getLong(rs, "max_publish_rate")),
        rs.getLong("version"));
  }

  @Override
  protected Message toProto(Namespace n) {
    var quotas = NamespaceQuotas.newBuilder();
    if (n.quotas().maxStreams() != null) {
      quotas.setMaxStreams(n.quotas().maxStreams());
    }
    if (n.quotas().maxPublishRate() != null) {
      quotas.setMaxPublishRate(n.quotas().maxPublishRate());
    }
    return dev.controlplane.proto.v1.Namespace.newBuilder()
        .setTenant(n.tenant())
        .setName(n.name())
        .setDescription(n.description())
        .setQuotas(quotas)
        .setVersion(n.version())
        .build();
  }

  @Override
  public int snapshotField() {
    return Metadata.NAMESPACES_FIELD_NUMBER;
  }

  @Override
  public void setOn(MetadataUpdate.Builder update, Message message) {
    update.setNamespace((dev.controlplane.proto.v1.Namespace) message);
  }
}
