package dev.controlplane.metadata.kind;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Message;
import dev.controlplane.metadata.model.Resource;
import dev.controlplane.metadata.model.ResourceKind;
import dev.controlplane.metadata.model.Text;
import dev.controlplane.proto.v1.MetadataUpdate;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Everything that differs between resource kinds, declared once per kind: the document fields
 * ({@code metadata} and {@code spec} of the declarative form, which is also the change log's
 * payload), the table of the current state, and the protobuf message. The codec, the write
 * pipeline's JDBC writer, the image loader and the gRPC mapping all dispatch through {@link Kinds},
 * so a new kind is one subclass plus its record, table and message.
 *
 * <p>Subclasses are stateless and thread-safe.
 */
public abstract class Kind<R extends Resource> {

  private final ResourceKind kind;
  private final Class<R> type;

  protected Kind(ResourceKind kind, Class<R> type) {
    this.kind = kind;
    this.type = type;
  }

  public final ResourceKind kind() {
    return kind;
  }

  public final Class<R> type() {
    return type;
  }

  // ---- document ----

  /** Reads {@code metadata} and {@code spec} (and {@code status}); problems go to {@code r}. */
  public abstract R read(JsonNode metadata, JsonNode doc, FieldReader r);

  /** Writes the resource's identity into {@code metadata} and the rest into {@code doc}. */
  protected abstract void write(R resource, ObjectNode metadata, ObjectNode doc);

  public final void writeDocument(Resource resource, ObjectNode metadata, ObjectNode doc) {
    write(type.cast(resource), metadata, doc);
  }

  // ---- table ----

  /** {@code INSERT … ON CONFLICT (key) DO UPDATE …}: creates or replaces the resource's row. */
  public abstract String upsertSql();

  /** Binds the parameters of {@link #upsertSql()}. */
  protected abstract void bindRow(PreparedStatement ps, R resource) throws SQLException;

  /** {@code DELETE … WHERE key columns = ?}. */
  public abstract String deleteSql();

  /** Binds the key parameters of {@link #deleteSql()}. */
  protected abstract void bindKey(PreparedStatement ps, R resource) throws SQLException;

  /** {@code SELECT} of every row of the current state, with the columns {@link #fromRow} reads. */
  public abstract String selectAllSql();

  /** One row of {@link #selectAllSql()} as a resource. */
  public abstract R fromRow(ResultSet rs) throws SQLException;

  public final void bindRowOf(PreparedStatement ps, Resource resource) throws SQLException {
    bindRow(ps, type.cast(resource));
  }

  public final void bindKeyOf(PreparedStatement ps, Resource resource) throws SQLException {
    bindKey(ps, type.cast(resource));
  }

  // ---- protobuf ----

  protected abstract Message toProto(R resource);

  /** The number of this kind's list in a snapshot chunk's {@code Metadata} message. */
  public abstract int snapshotField();

  /** Sets a message made by {@link #message} as the payload of an update. */
  public abstract void setOn(MetadataUpdate.Builder update, Message message);

  public final Message message(Resource resource) {
    return toProto(type.cast(resource));
  }

  // ---- helpers shared by the kinds ----

  static final int MAX_TEXT = 1024;

  static String text(JsonNode parent, String field, String path, FieldReader r) {
    String value = r.string(parent, field, path, false);
    if (value != null && value.length() > MAX_TEXT) {
      r.error(path, "must be at most " + MAX_TEXT + " characters");
      return null;
    }
    if (value != null && !Text.isLines(value)) {
      r.error(path, "must be " + Text.LINES_RULE);
      return null;
    }
    return value;
  }

  static void putIfSet(ObjectNode node, String field, Long value) {
    if (value != null) {
      node.put(field, value);
    }
  }

  static void setLong(PreparedStatement ps, int index, Long value) throws SQLException {
    if (value == null) {
      ps.setNull(index, java.sql.Types.BIGINT);
    } else {
      ps.setLong(index, value);
    }
  }

  static void setInt(PreparedStatement ps, int index, Integer value) throws SQLException {
    if (value == null) {
      ps.setNull(index, java.sql.Types.INTEGER);
    } else {
      ps.setInt(index, value);
    }
  }

  static Long getLong(ResultSet rs, String column) throws SQLException {
    long value = rs.getLong(column);
    return rs.wasNull() ? null : value;
  }

  static Integer getInt(ResultSet rs, String column) throws SQLException {
    int value = rs.getInt(column);
    return rs.wasNull() ? null : value;
  }
}
