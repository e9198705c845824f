package dev.controlplane.http;

import dev.controlplane.audit.AuditQueries;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.rbac.Action;
import dev.controlplane.rbac.Permission;
import dev.controlplane.rbac.RbacObject;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.util.List;

/**
 * A tenant's audit log, newest first, paged like the other lists; filters {@code since}
 * (inclusive), {@code until} (exclusive), {@code principal}, {@code operation}. Needs {@code
 * audit.view} or {@code rbac.view} on {@code tenant:{tenant}}. The operator's view of every record
 * is {@link PlatformAuditResource}.
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
      @BeanParam AuditPages.Request request,
      @Context HttpHeaders headers) {
    List<Permission> held = auth.authenticate(headers, tenant);
    RbacObject scope = RbacObject.tenant(tenant);
    if (!Permission.anyCovers(held, new Permission(Action.AUDIT_VIEW, scope))
        && !Permission.anyCovers(held, new Permission(Action.RBAC_VIEW, scope))) {
      throw new ControlPlaneException(
          ErrorCode.FORBIDDEN, "reading the audit log needs audit.view or rbac.view on " + scope);
    }
    return AuditPages.page(queries, tenant, request);
  }
}
