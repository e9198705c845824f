package dev.controlplane.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.logging.Logger;

/**
 * The audit record's two outward forms: the row ({@link #INSERT} with {@link #params}) and the JSON
 * line on the {@value #LOGGER} logger, one line per record, for shipping to a log pipeline. Both
 * carry exactly the record's fields; the entries never hold tokens, secrets or key material.
 */
public final class AuditLog {

  /** The logger of the JSON lines; route or filter it by this name. */
  public static final String LOGGER = "controlplane.audit";

  public static final String INSERT =
      "INSERT INTO audit_records (at, event_type, operation, action, result, reason, principal,"
          + " principal_type, tenant, namespace, stream, resource, metadata, source_ip,"
          + " user_agent, node, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?,"
          + " ?, ?, ?)";

  private static final Logger LINES = Logger.getLogger(LOGGER);
  static final ObjectMapper JSON = new ObjectMapper();

  private AuditLog() {}

  /** The parameters of {@link #INSERT} for {@code r}, in order. */
  public static Object[] params(AuditRecord r) {
    AuditEntry e = r.entry();
    Actor a = r.actor();
    return new Object[] {
      r.at(),
      e.eventType(),
      e.operation(),
      e.action(),
      r.result(),
      r.reason(),
      a.principal(),
      a.principalType(),
      e.tenant(),
      e.namespace(),
      e.stream(),
      e.resource(),
      metadataJson(e),
      a.sourceIp(),
      a.userAgent(),
      r.node(),
      r.version()
    };
  }

  /** Writes the record's JSON line. */
  public static void emit(AuditRecord r) {
    LINES.info(line(r));
  }

  /** The record as one JSON line, the same fields as the row and the read API. */
  public static String line(AuditRecord r) {
    return tree(r).toString();
  }

  /** The record as a JSON object. */
  public static ObjectNode tree(AuditRecord r) {
    AuditEntry e = r.entry();
    Actor a = r.actor();
    ObjectNode o = JSON.createObjectNode();
    o.put("timestamp", r.at().toString());
    o.put("event_type", e.eventType());
    o.put("operation", e.operation());
    o.put("action", e.action());
    o.put("result", r.result());
    o.put("reason", r.reason());
    o.put("principal", a.principal());
    o.put("principal_type", a.principalType());
    o.put("tenant", e.tenant());
    o.put("namespace", e.namespace());
    o.put("stream", e.stream());
    o.put("resource", e.resource());
    o.set("metadata", JSON.valueToTree(e.metadata()));
    o.put("source_ip", a.sourceIp());
    o.put("user_agent", a.userAgent());
    o.put("node", r.node());
    if (r.version() == null) {
      o.putNull("version");
    } else {
      o.put("version", r.version());
    }
    return o;
  }

  private static String metadataJson(AuditEntry e) {
    try {
      return JSON.writeValueAsString(e.metadata());
    } catch (JsonProcessingException ex) {
      throw new IllegalArgumentException("audit metadata must be plain JSON values", ex);
    }
  }
}
