package dev.controlplane.audit;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.StringWriter;
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

  /**
   * The record as one JSON line, the same fields as the row and the read API ({@link #tree}).
   * Written straight to text, without the tree: one line goes out per write and per token exchange,
   * and building the tree first cost about a third of the line.
   */
  public static String line(AuditRecord r) {
    AuditEntry e = r.entry();
    Actor a = r.actor();
    StringWriter out = new StringWriter(384);
    try (JsonGenerator g = JSON.getFactory().createGenerator(out)) {
      g.writeStartObject();
      g.writeStringField("timestamp", r.at().toString());
      g.writeStringField("event_type", e.eventType());
      g.writeStringField("operation", e.operation());
      g.writeStringField("action", e.action());
      g.writeStringField("result", r.result());
      g.writeStringField("reason", r.reason());
      g.writeStringField("principal", a.principal());
      g.writeStringField("principal_type", a.principalType());
      g.writeStringField("tenant", e.tenant());
      g.writeStringField("namespace", e.namespace());
      g.writeStringField("stream", e.stream());
      g.writeStringField("resource", e.resource());
      g.writeObjectField("metadata", e.metadata());
      g.writeStringField("source_ip", a.sourceIp());
      g.writeStringField("user_agent", a.userAgent());
      g.writeStringField("node", r.node());
      if (r.version() == null) {
        g.writeNullField("version");
      } else {
        g.writeNumberField("version", r.version());
      }
      g.writeEndObject();
    } catch (IOException ex) {
      throw new IllegalArgumentException("audit metadata must be plain JSON values", ex);
    }
    return out.toString();
  }

  /** The record as a JSON object: its {@link #line}, the one place that lists the fields. */
  public static ObjectNode tree(AuditRecord r) {
    try {
      return (ObjectNode) JSON.readTree(line(r));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("an audit line is always one JSON object", e);
    }
  }

  private static String metadataJson(AuditEntry e) {
    try {
      return JSON.writeValueAsString(e.metadata());
    } catch (JsonProcessingException ex) {
      throw new IllegalArgumentException("audit metadata must be plain JSON values", ex);
    }
  }
}
