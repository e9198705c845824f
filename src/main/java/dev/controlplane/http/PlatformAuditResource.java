package dev.controlplane.http;

import dev.controlplane.audit.AuditQueries;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.metadata.model.Names;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

/**
 * The platform operator's audit log: every record, those without a tenant included (brokers,
 * failure detection), with a tenant's filters and {@code tenant} besides. Operator credential only.
 */
@Path("/v1/audit")
@ApplicationScoped
@Produces("application/json")
public class PlatformAuditResource {

  @Inject AuditQueries queries;
  @Inject AdminAuth auth;

  @GET
  public Response list(
      @QueryParam("tenant") String tenant,
      @BeanParam AuditPages.Request request,
      @Context HttpHeaders headers) {
    auth.requireOperator(headers, "reading every tenant's audit log");
    boolean one = tenant != null && !tenant.isEmpty();
    if (one && !Names.isValid(tenant)) {
      throw ControlPlaneException.validation("tenant", "must be " + Names.RULE);
    }
    return AuditPages.page(queries, one ? tenant : null, request);
  }
}
