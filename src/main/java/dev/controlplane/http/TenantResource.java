package dev.controlplane.http;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.metadata.Applied;
import dev.controlplane.metadata.TenantService;
import dev.controlplane.metadata.codec.ResourceCodec;
import dev.controlplane.metadata.log.WriteMode;
import dev.controlplane.metadata.model.ResourceKind;
import dev.controlplane.metadata.model.Tenant;
import dev.controlplane.metadata.store.ResourceStore;
import dev.controlplane.rbac.Action;
import dev.controlplane.rbac.RbacObject;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.util.Map;

/** Tenants as declarative resources. */
@Path("/v1/tenants")
@ApplicationScoped
@Produces({"application/json", "application/yaml"})
public class TenantResource {

  @Inject ResourceStore store;
  @Inject TenantService tenants;
  @Inject ResourceCodec codec;
  @Inject AdminAuth auth;

  @GET
  public Response list(
      @QueryParam("limit") String limit,
      @QueryParam("page_token") String pageToken,
      @Context HttpHeaders headers) {
    auth.requirePlatformReader(headers);
    int n = Paging.limit(limit);
    var page = store.tenants(Paging.after(pageToken), n);
    return Documents.list(codec, page, Paging.next(page, n, Tenant::name), headers);
  }

  @GET
  @Path("/{tenant}")
  public Response get(@PathParam("tenant") String tenant, @Context HttpHeaders headers) {
    auth.requireTenantReader(headers, tenant);
    PathNames.check("tenant", tenant);
    Tenant found =
        store
            .tenant(tenant)
            .orElseThrow(
                () -> ControlPlaneException.notFound("tenant " + tenant + " does not exist"));
    return Documents.ok(codec, found, headers).build();
  }

  @PUT
  @Path("/{tenant}")
  @Consumes({"application/json", "application/yaml", "application/x-yaml", "text/yaml"})
  public Response put(
      @PathParam("tenant") String tenant,
      @QueryParam("dryRun") String dryRun,
      byte[] body,
      @Context HttpHeaders headers) {
    auth.require(headers, tenant, Action.TENANT_MANAGE, RbacObject.tenant(tenant));
    PathNames.check("tenant", tenant);
    WriteMode mode = WriteMode.ofDryRunParameter(dryRun);
    var doc = Documents.parse(codec, body, headers);
    Tenant wanted = (Tenant) codec.read(doc, ResourceKind.TENANT, Map.of("name", tenant));
    Applied<Tenant> applied =
        tenants.applyTenant(
            wanted,
            Conditions.forPut(headers).andStated(codec.expectedVersion(doc)),
            auth.isPlatformOperator(headers)
                ? TenantService.Writer.PLATFORM
                : TenantService.Writer.TENANT,
            doc.path("spec").has("quotas"),
            mode);
    return Documents.written(applied.created() ? 201 : 200, codec, applied.resource(), headers)
        .build();
  }

  @DELETE
  @Path("/{tenant}")
  public Response delete(
      @PathParam("tenant") String tenant,
      @QueryParam("dryRun") String dryRun,
      @Context HttpHeaders headers) {
    auth.require(headers, tenant, Action.TENANT_MANAGE, RbacObject.tenant(tenant));
    PathNames.check("tenant", tenant);
    WriteMode mode = WriteMode.ofDryRunParameter(dryRun);
    return Documents.ok(
            codec, tenants.deleteTenant(tenant, Conditions.forDelete(headers), mode), headers)
        .build();
  }
}
