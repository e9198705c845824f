package dev.controlplane.metadata.kind;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Message;
import dev.controlplane.metadata.model.DurationValue;
import dev.controlplane.metadata.model.ResourceKind;
import dev.controlplane.metadata.model.SizeValue;
import dev.controlplane.metadata.model.Tenant;
import dev.controlplane.proto.v1.EncryptionSettings;
import dev.controlplane.proto.v1.Metadata;
import dev.controlplane.proto.v1.MetadataUpdate;
import dev.controlplane.proto.v1.TenantQuotas;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Set;

/** Tenant: document fields, the {@code tenants} table and the protobuf {@code Tenant}. */
final class TenantKind extends Kind<Tenant> {

  TenantKind() {
    super(ResourceKind.TENANT, Tenant.class);
  }

  @Override
  public Tenant read(JsonNode md, JsonNode doc, FieldReader r) {
    r.rejectUnknown(md, "metadata", Set.of("name", "version"));
    String name = r.name(md, "name", "metadata.name", true);
    JsonNode spec =
        r.object(doc, "spec", "spec", false, Set.of("description", "quotas", "encryption"));
    String description = text(spec, "description", "spec.description", r);
    JsonNode quotas =
        r.object(
            spec,
            "quotas",
            "spec.quotas",
            false,
            Set.of("max_streams", "max_publish_rate", "max_storage"));
    Long maxStreams =
        r.integer(quotas, "max_streams", "spec.quotas.max_streams", false, 0, Long.MAX_VALUE);
    Long maxRate =
        r.integer(
            quotas, "max_publish_rate", "spec.quotas.max_publish_rate", false, 0, Long.MAX_VALUE);
    SizeValue maxStorage = r.size(quotas, "max_storage", "spec.quotas.max_storage");
    JsonNode enc =
        r.object(spec, "encryption", "spec.encryption", false, Set.of("key_id", "rotation_period"));
    String keyId = text(enc, "key_id", "spec.encryption.key_id", r);
    DurationValue rotation = r.duration(enc, "rotation_period", "spec.encryption.rotation_period");
    return new Tenant(
        name,
        description,
        new Tenant.TenantQuotas(maxStreams, maxRate, maxStorage),
        new Tenant.Encryption(keyId, rotation),
        0);
  }

  @Override
  protected void write(Tenant t, ObjectNode md, ObjectNode doc) {
    md.put("name", t.name());
    ObjectNode spec = doc.putObject("spec");
    spec.put("description", t.description());
    ObjectNode q = spec.putObject("quotas");
    putIfSet(q, "max_streams", t.quotas().maxStreams());
    putIfSet(q, "max_publish_rate", t.quotas().maxPublishRate());
    if (t.quotas().maxStorage() != null) {
      q.put("max_storage", t.quotas().maxStorage().text());
    }
    ObjectNode e = spec.putObject("encryption");
    if (t.encryption().keyId() != null) {
      e.put("key_id", t.encryption().keyId());
    }
    if (t.encryption().rotationPeriod() != null) {
      e.put("rotation_period", t.encryption().rotationPeriod().text());
    }
  }

  private static final String COLUMNS =
      "name, description, max_streams, max_publish_rate, max_storage, max_storage_bytes,"
          + " encryption_key_id, encryption_rotation, encryption_rotation_ms, version";

  @Override
  public String upsertSql() {
    return "INSERT INTO tenants ("
        + COLUMNS
        + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET"
        + " description = excluded.description, max_streams = excluded.max_streams,"
        + " max_publish_rate = excluded.max_publish_rate, max_storage = excluded.max_storage,"
        + " max_storage_bytes = excluded.max_storage_bytes,"
        + " encryption_key_id = excluded.encryption_key_id,"
        + " encryption_rotation = excluded.encryption_rotation,"
        + " encryption_rotation_ms = excluded.encryption_rotation_ms, version = excluded.version";
  }

  @Override
  protected void bindRow(PreparedStatement ps, Tenant t) throws SQLException {
    SizeValue storage = t.quotas().maxStorage();
    DurationValue rotation = t.encryption().rotationPeriod();
    ps.setString(1, t.name());
    ps.setString(2, t.description());
    setLong(ps, 3, t.quotas().maxStreams());
    setLong(ps, 4, t.quotas().maxPublishRate());
    ps.setString(5, storage == null ? null : storage.text());
    setLong(ps, 6, storage == null ? null : storage.bytes());
    ps.setString(7, t.encryption().keyId());
    ps.setString(8, rotation == null ? null : rotation.text());
    setLong(ps, 9, rotation == null ? null : rotation.millis());
    ps.setLong(10, t.version());
  }

  @Override
  public String deleteSql() {
    return "DELETE FROM tenants WHERE name = ?";
  }

  @Override
  protected void bindKey(PreparedStatement ps, Tenant t) throws SQLException {
    ps.setString(1, t.name());
  }

  @Override
  public String selectAllSql() {
    return "SELECT " + COLUMNS + " FROM tenants";
  }

  @Override
  public Tenant fromRow(ResultSet rs) throws SQLException {
    String storage = rs.getString("max_storage");
    String rotation = rs.getString("encryption_rotation");
    return new Tenant(
        rs.getString("name"),
        rs.getString("description"),
        new Tenant.TenantQuotas(
            getLong(rs, "max_streams"),
            getLong(rs, "max_publish_rate"),
            storage == null ? null : new SizeValue(storage, rs.getLong("max_storage_bytes"))),
        new Tenant.Encryption(
            rs.getString("encryption_key_id"),
            rotation == null
                ? null
                : new DurationValue(rotation, rs.getLong("encryption_rotation_ms"))),
        rs.getLong("version"));
  }

  @Override
  protected Message toProto(Tenant t) {
    var quotas = TenantQuotas.newBuilder();
    if (t.quotas().maxStreams() != null) {
      quotas.setMaxStreams(t.quotas().maxStreams());
    }
    if (t.quotas().maxPublishRate() != null) {
      quotas.setMaxPublishRate(t.quotas().maxPublishRate());
    }
    if (t.quotas().maxStorage() != null) {
      quotas
          .setMaxStorage(t.quotas().maxStorage().text())
          .setMaxStorageInBytes(t.quotas().maxStorage().bytes());
    }
    var encryption = EncryptionSettings.newBuilder();
    if (t.encryption().keyId() != null) {
      encryption.setKeyId(t.encryption().keyId());
    }
    if (t.encryption().rotationPeriod() != null) {
      encryption
          .setRotationPeriod(t.encryption().rotationPeriod().text())
          .setRotationPeriodMs(t.encryption().rotationPeriod().millis());
    }
    return dev.controlplane.proto.v1.Tenant.newBuilder()
        .setName(t.name())
        .setDescription(t.description())
        .setQuotas(quotas)
        .setEncryption(encryption)
        .setVersion(t.version())
        .build();
  }

  @Override
  public int snapshotField() {
    return Metadata.TENANTS_FIELD_NUMBER;
  }

  @Override
  public void setOn(MetadataUpdate.Builder update, Message message) {
    update.setTenant((dev.controlplane.proto.v1.Tenant) message);
  }
}
