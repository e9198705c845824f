package dev.controlplane.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import dev.controlplane.db.Params;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.Failures;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * Reads audit records (a tenant's, or every one), newest first, a page at a time (keyset: records
 * with an id below the last one returned), filtered by time, principal and operation. Served by
 * every node from PostgreSQL.
 */
@ApplicationScoped
public class AuditQueries {

  private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {};

  @Resource(lookup = "jdbc/controlplane-direct")
  DataSource dataSource;

  /**
   * What to read: {@code before} is the id the previous page ended at (0: from the newest); null
   * filters (a null tenant included) match everything; {@code since} is inclusive, {@code until}
   * exclusive.
   */
  public record Query(
      String tenant,
      Instant since,
      Instant until,
      String principal,
      String operation,
      long before,
      int limit) {}

  /** A stored record and its id (the page position). */
  public record Stored(long id, AuditRecord record) {}

  public List<Stored> page(Query q) {
    StringBuilder sql =
        new StringBuilder(
            "SELECT id, at, event_type, operation, action, result, reason, principal,"
                + " principal_type, tenant, namespace, stream, resource, metadata::text,"
                + " source_ip, user_agent, node, version FROM audit_records WHERE TRUE");
    List<Object> params = new ArrayList<>();
    condition(sql, params, "tenant = ?", q.tenant());
    condition(sql, params, "id < ?", q.before() > 0 ? q.before() : null);
    condition(sql, params, "at >= ?", q.since());
    condition(sql, params, "at < ?", q.until());
    condition(sql, params, "principal = ?", q.principal());
    condition(sql, params, "operation = ?", q.operation());
    sql.append(" ORDER BY id DESC LIMIT ?");
    params.add(q.limit());
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(sql.toString())) {
      Params.bind(ps, params.toArray());
      List<Stored> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(new Stored(rs.getLong(1), record(rs)));
        }
      }
      return out;
    } catch (SQLException e) {
      throw Failures.isDataException(e)
          ? Failures.refusedValue()
          : ControlPlaneException.unavailable("the database is unavailable; retry", e);
    }
  }

  private static void condition(StringBuilder sql, List<Object> params, String test, Object value) {
    if (value != null) {
      sql.append(" AND ").append(test);
      params.add(value);
    }
  }

  private static AuditRecord record(ResultSet rs) throws SQLException {
    AuditEntry entry =
        new AuditEntry(
            rs.getString(3),
            rs.getString(4),
            rs.getString(5),
            rs.getString(10),
            rs.getString(11),
            rs.getString(12),
            rs.getString(13),
            metadata(rs.getString(14)));
    Actor actor = new Actor(rs.getString(8), rs.getString(9), rs.getString(15), rs.getString(16));
    Long version = rs.getObject(18, Long.class);
    return new AuditRecord(
        rs.getTimestamp(2).toInstant(),
        entry,
        rs.getString(6),
        rs.getString(7),
        actor,
        rs.getString(17),
        version);
  }

  private static Map<String, Object> metadata(String json) {
    try {
      return AuditLog.JSON.readValue(json, MAP);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("audit_records.metadata is not a JSON object", e);
    }
  }
}
