package dev.controlplane.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.controlplane.audit.AuditLog;
import dev.controlplane.audit.AuditQueries;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.rbac.Action;
import dev.controlplane.rbac.Permission;
import dev.controlplane.rbac.RbacObject;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * A tenant's audit log, newest first, paged like the other lists; filters {@code since}
 * (inclusive), {@code until} (exclusive), {@code principal}, {@code operation}. Needs {@code
 * audit.view} or {@code rbac.view} on {@code tenant:{tenant}}.
 */
@Path("/v1/tenants/{tenant}/audit")
@ApplicationScoped
@Produces("application/json")
public class AuditResource {

  @Inject AuditQueries queries;
  @Inject AdminAuth auth;

  @GET
  public Response list(
      @PathParam("tenant") String tenant,
      @QueryParam("limit") String limit,
      @QueryParam("page_token") String pageToken,
      @QueryParam("since") String since,
      @QueryParam("until") String until,
      @QueryParam("principal") String principal,
      @QueryParam("operation") String operation,
      @Context HttpHeaders headers) {
    List<Permission> held = auth.authenticate(headers, tenant);
    RbacObject scope = RbacObject.tenant(tenant);
    if (!Permission.anyCovers(held, new Permission(Action.AUDIT_VIEW, scope))
        && !Permission.anyCovers(held, new Permission(Action.RBAC_VIEW, scope))) {
      throw new ControlPlaneException(
          ErrorCode.FORBIDDEN, "reading the audit log needs audit.view or rbac.view on " + scope);
    }
    int n = Paging.limit(limit);
    var page =
        queries.page(
            new AuditQueries.Query(
                tenant,
                instant("since", since),
                instant("until", until),
                blankIsNull(principal),
                blankIsNull(operation),
                position(pageToken),
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
    try {
      return OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeParseException e) {
      throw ControlPlaneException.validation(
          field, "must be an RFC 3339 date-time with an offset, e.g. 2026-11-24T06:00:00Z");
    }
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

  private static String blankIsNull(String text) {
    return text == null || text.isEmpty() ? null : text;
  }
}
