package dev.controlplane.http;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.metadata.Applied;
import dev.controlplane.metadata.NamespaceService;
import dev.controlplane.metadata.Parents;
import dev.controlplane.metadata.codec.ResourceCodec;
import dev.controlplane.metadata.log.WriteMode;
import dev.controlplane.metadata.model.Namespace;
import dev.controlplane.metadata.model.ResourceKind;
import dev.controlplane.metadata.model.ShardPlacement;
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

/** Namespaces of a tenant, and the placements of their streams. */
@Path("/v1/tenants/{tenant}/namespaces")
@ApplicationScoped
@Produces({"application/json", "application/yaml"})
public class NamespaceResource {

  @Inject ResourceStore store;
  @Inject NamespaceService namespaces;
  @Inject ResourceCodec codec;
  @Inject AdminAuth auth;

  @GET
  public Response list(
      @PathParam("tenant") String tenant,
      @QueryParam("limit") String limit,
      @QueryParam("page_token") String pageToken,
      @Context HttpHeaders headers) {
    auth.requireTenantReader(headers, tenant);
    PathNames.check("tenant", tenant);
    int n = Paging.limit(limit);
    var page =
        Parents.ofTenant(store, tenant, store.namespaces(tenant, Paging.after(pageToken), n));
    return Documents.list(codec, page, Paging.next(page, n, Namespace::name), headers);
  }

  @GET
  @Path("/{namespace}")
  public Response get(
      @PathParam("tenant") String tenant,
      @PathParam("namespace") String namespace,
      @Context HttpHeaders headers) {
    auth.requireTenantReader(headers, tenant);
    PathNames.check("tenant", tenant);
    PathNames.check("namespace", namespace);
    Namespace found =
        store
            .namespace(tenant, namespace)
            .orElseThrow(
                () ->
                    ControlPlaneException.notFound(
                        "namespace " + tenant + "/" + namespace + " does not exist"));
    return Documents.ok(codec, found, headers).build();
  }

  @PUT
  @Path("/{namespace}")
  @Consumes({"application/json", "application/yaml", "application/x-yaml", "text/yaml"})
  public Response put(
      @PathParam("tenant") String tenant,
      @PathParam("namespace") String namespace,
      @QueryParam("dryRun") String dryRun,
      byte[] body,
      @Context HttpHeaders headers) {
    auth.require(headers, tenant, Action.NS_MANAGE, RbacObject.namespace(tenant, namespace));
    PathNames.check("tenant", tenant);
    PathNames.check("namespace", namespace);
    WriteMode mode = WriteMode.ofDryRunParameter(dryRun);
    var doc = Documents.parse(codec, body, headers);
    Namespace wanted =
        (Namespace)
            codec.read(doc, ResourceKind.NAMESPACE, Map.of("tenant", tenant, "name", namespace));
    Applied<Namespace> applied =
        namespaces.applyNamespace(
            wanted, Conditions.forPut(headers).andStated(codec.expectedVersion(doc)), mode);
    return Documents.written(applied.created() ? 201 : 200, codec, applied.resource(), headers)
        .build();
  }

  @DELETE
  @Path("/{namespace}")
  public Response delete(
      @PathParam("tenant") String tenant,
      @PathParam("namespace") String namespace,
      @QueryParam("dryRun") String dryRun,
      @Context HttpHeaders headers) {
    auth.require(headers, tenant, Action.NS_MANAGE, RbacObject.namespace(tenant, namespace));
    PathNames.check("tenant", tenant);
    PathNames.check("namespace", namespace);
    WriteMode mode = WriteMode.ofDryRunParameter(dryRun);
    return Documents.ok(
            codec,
            namespaces.deleteNamespace(tenant, namespace, Conditions.forDelete(headers), mode),
            headers)
        .build();
  }

  @GET
  @Path("/{namespace}/placements")
  public Response placements(
      @PathParam("tenant") String tenant,
      @PathParam("namespace") String namespace,
      @QueryParam("limit") String limit,
      @QueryParam("page_token") String pageToken,
      @Context HttpHeaders headers) {
    auth.requireTenantReader(headers, tenant);
    PathNames.check("tenant", tenant);
    PathNames.check("namespace", namespace);
    int n = Paging.limit(limit);
    var page =
        Parents.ofNamespace(
            store,
            tenant,
            namespace,
            store.placements(tenant, namespace, Paging.after(pageToken), n));
    return Documents.list(codec, page, Paging.next(page, n, ShardPlacement::stream), headers);
  }
}
