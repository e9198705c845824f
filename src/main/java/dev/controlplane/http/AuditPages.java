package dev.controlplane.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.controlplane.audit.AuditLog;
import dev.controlplane.audit.AuditQueries;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.metadata.model.Text;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * One page of audit records as the API answers it: the query parameters checked (400 for a bad
 * one), the records newest first with their ids, and the next page's token.
 */
public final class AuditPages {

  /** The query parameters of an audit list, as they arrive (a JAX-RS {@code @BeanParam}). */
  public static final class Request {
    @QueryParam("limit")
    String limit;

    @QueryParam("page_token")
    String pageToken;

    @QueryParam("since")
    String since;

    @QueryParam("until")
    String until;

    @QueryParam("principal")
    String principal;

    @QueryParam("operation")
    String operation;

    public Request() {}
  }

  private AuditPages() {}

  static Response page(AuditQueries queries, String tenant, Request request) {
    int n = Paging.limit(request.limit);
    var page =
        queries.page(
            new AuditQueries.Query(
                tenant,
                instant("since", request.since),
                instant("until", request.until),
                line("principal", request.principal),
                line("operation", request.operation),
                position(request.pageToken),
                n));
    ObjectNode reply = JsonBodies.JSON.createObjectNode();
    var records = reply.putArray("records");
    page.forEach(s -> records.add(AuditLog.tree(s.record()).put("id", s.id())));
    String next = Paging.next(page, n, s -> Long.toString(s.id()));
    reply.put("next_page_token", next == null ? "" : next);
    return Response.ok(reply.toString()).build();
  }

  /** An RFC 3339 date-time with an offset ({@code 2026-11-24T06:00:00Z}); 400 otherwise. */
  private static Instant instant(String field, String text) {
    if (text == null || text.isEmpty()) {
      return null;
    }
    OffsetDateTime parsed;
    try {
      parsed = OffsetDateTime.parse(text);
    } catch (DateTimeParseException e) {
      parsed = null;
    }
    // RFC 3339 years have four digits; Java also reads years PostgreSQL cannot compare.
    if (parsed == null || parsed.getYear() < 1 || parsed.getYear() > 9999) {
      throw ControlPlaneException.validation(
          field, "must be an RFC 3339 date-time with an offset, e.g. 2026-11-24T06:00:00Z");
    }
    return parsed.toInstant();
  }

  private static long position(String pageToken) {
    String after = Paging.after(pageToken);
    if (after.isEmpty()) {
      return 0;
    }
    try {
      return Long.parseLong(after);
    } catch (NumberFormatException e) {
      throw ControlPlaneException.validation("page_token", "is not a token this API returned");
    }
  }

  /** A filter's text; empty means no filter. */
  private static String line(String field, String text) {
    if (text == null || text.isEmpty()) {
      return null;
    }
    if (!Text.isLine(text)) {
      throw ControlPlaneException.validation(field, "must be " + Text.LINE_RULE);
    }
    return text;
  }
}
