package dev.controlplane.http;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.metadata.Applied;
import dev.controlplane.metadata.BridgeService;
import dev.controlplane.metadata.codec.ResourceCodec;
import dev.controlplane.metadata.log.WriteMode;
import dev.controlplane.metadata.model.Bridge;
import dev.controlplane.metadata.model.ResourceKind;
import dev.controlplane.metadata.store.ResourceStore;
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

/**
 * Bridges: cluster-wide, since one may carry streams of several tenants, so the platform operator
 * writes them, and the operator and the brokers (who also get them in snapshots) read them.
 */
@Path("/v1/bridges")
@ApplicationScoped
@Produces({"application/json", "application/yaml"})
public class BridgeResource {

  private static final String TENANT_HINT =
      "; a bridge may carry streams of several tenants, so no tenant's token reads it";

  @Inject ResourceStore store;
  @Inject BridgeService bridges;
  @Inject ResourceCodec codec;
  @Inject AdminAuth auth;

  @GET
  public Response list(
      @QueryParam("limit") String limit,
      @QueryParam("page_token") String pageToken,
      @Context HttpHeaders headers) {
    auth.requirePlatformReader(headers, "reading bridges", TENANT_HINT);
    int n = Paging.limit(limit);
    var page = store.bridges(Paging.after(pageToken), n);
    return Documents.list(codec, page, Paging.next(page, n, Bridge::name), headers);
  }

  @GET
  @Path("/{bridge}")
  public Response get(@PathParam("bridge") String bridge, @Context HttpHeaders headers) {
    auth.requirePlatformReader(headers, "reading bridges", TENANT_HINT);
    PathNames.check("bridge", bridge);
    Bridge found =
        store
            .bridge(bridge)
            .orElseThrow(
                () -> ControlPlaneException.notFound("bridge " + bridge + " does not exist"));
    return Documents.ok(codec, found, headers).build();
  }

  @PUT
  @Path("/{bridge}")
  @Consumes({"application/json", "application/yaml", "application/x-yaml", "text/yaml"})
  public Response put(
      @PathParam("bridge") String bridge,
      @QueryParam("dryRun") String dryRun,
      byte[] body,
      @Context HttpHeaders headers) {
    auth.requireOperator(headers, "writing a bridge");
    PathNames.check("bridge", bridge);
    WriteMode mode = WriteMode.ofDryRunParameter(dryRun);
    var doc = Documents.parse(codec, body, headers);
    Bridge wanted = (Bridge) codec.read(doc, ResourceKind.BRIDGE, Map.of("name", bridge));
    Applied<Bridge> applied =
        bridges.applyBridge(
            wanted, Conditions.forPut(headers).andStated(codec.expectedVersion(doc)), mode);
    return Documents.written(applied.created() ? 201 : 200, codec, applied.resource(), headers)
        .build();
  }

  @DELETE
  @Path("/{bridge}")
  public Response delete(
      @PathParam("bridge") String bridge,
      @QueryParam("dryRun") String dryRun,
      @Context HttpHeaders headers) {
    auth.requireOperator(headers, "deleting a bridge");
    PathNames.check("bridge", bridge);
    WriteMode mode = WriteMode.ofDryRunParameter(dryRun);
    return Documents.ok(
            codec, bridges.deleteBridge(bridge, Conditions.forDelete(headers), mode), headers)
        .build();
  }
}
