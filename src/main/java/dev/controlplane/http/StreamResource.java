package dev.controlplane.http;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.metadata.Applied;
import dev.controlplane.metadata.Parents;
import dev.controlplane.metadata.StreamService;
import dev.controlplane.metadata.codec.ResourceCodec;
import dev.controlplane.metadata.log.WriteMode;
import dev.controlplane.metadata.model.ResourceKind;
import dev.controlplane.metadata.model.Stream;
import dev.controlplane.metadata.model.StreamRef;
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

/** Streams of a namespace and the placement of each. */
@Path("/v1/tenants/{tenant}/namespaces/{namespace}/streams")
@ApplicationScoped
@Produces({"application/json", "application/yaml"})
public class StreamResource {

  @Inject ResourceStore store;
  @Inject StreamService streams;
  @Inject ResourceCodec codec;
  @Inject AdminAuth auth;

  @GET
  public Response list(
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
            store, tenant, namespace, store.streams(tenant, namespace, Paging.after(pageToken), n));
    return Documents.list(codec, page, Paging.next(page, n, Stream::name), headers);
  }

  @GET
  @Path("/{stream}")
  public Response get(
      @PathParam("tenant") String tenant,
      @PathParam("namespace") String namespace,
      @PathParam("stream") String stream,
      @Context HttpHeaders headers) {
    auth.requireTenantReader(headers, tenant);
    StreamRef ref = ref(tenant, namespace, stream);
    Stream found =
        store.stream(ref)
            .filter(s -> s.state() == Stream.State.ACTIVE)
            .orElseThrow(() -> ControlPlaneException.notFound("stream " + ref + " does not exist"));
    return Documents.ok(codec, found, headers).build();
  }

  @GET
  @Path("/{stream}/placement")
  public Response placement(
      @PathParam("tenant") String tenant,
      @PathParam("namespace") String namespace,
      @PathParam("stream") String stream,
      @Context HttpHeaders headers) {
    auth.requireTenantReader(headers, tenant);
    StreamRef ref = ref(tenant, namespace, stream);
    var found =
        store
            .placement(ref)
            .orElseThrow(
                () -> ControlPlaneException.notFound("stream " + ref + " has no placement"));
    return Documents.ok(codec, found, headers).build();
  }

  @PUT
  @Path("/{stream}")
  @Consumes({"application/json", "application/yaml", "application/x-yaml", "text/yaml"})
  public Response put(
      @PathParam("tenant") String tenant,
      @PathParam("namespace") String namespace,
      @PathParam("stream") String stream,
      @QueryParam("dryRun") String dryRun,
      byte[] body,
      @Context HttpHeaders headers) {
    auth.require(
        headers, tenant, Action.STREAM_MANAGE, RbacObject.stream(tenant, namespace, stream));
    StreamRef ref = ref(tenant, namespace, stream);
    WriteMode mode = WriteMode.ofDryRunParameter(dryRun);
    var doc = Documents.parse(codec, body, headers);
    Stream wanted =
        (Stream)
            codec.read(
                doc,
                ResourceKind.STREAM,
                Map.of("tenant", ref.tenant(), "namespace", ref.namespace(), "name", ref.stream()));
    Applied<Stream> applied =
        streams.applyStream(
            wanted, Conditions.forPut(headers).andStated(codec.expectedVersion(doc)), mode);
    return Documents.written(applied.created() ? 201 : 200, codec, applied.resource(), headers)
        .build();
  }

  @DELETE
  @Path("/{stream}")
  public Response delete(
      @PathParam("tenant") String tenant,
      @PathParam("namespace") String namespace,
      @PathParam("stream") String stream,
      @QueryParam("force") String force,
      @QueryParam("dryRun") String dryRun,
      @Context HttpHeaders headers) {
    auth.require(
        headers, tenant, Action.STREAM_MANAGE, RbacObject.stream(tenant, namespace, stream));
    WriteMode mode = WriteMode.ofDryRunParameter(dryRun);
    var deleted =
        streams.deleteStream(
            ref(tenant, namespace, stream), force(force), Conditions.forDelete(headers), mode);
    return Documents.ok(codec, deleted.stream(), headers).build();
  }

  /**
   * {@code force} as its OpenAPI boolean: a JAX-RS {@code boolean} would read a typo such as {@code
   * force=ture} as false and refuse the delete for an unrelated reason.
   */
  private static boolean force(String value) {
    if (value == null || value.isEmpty() || value.equals("false")) {
      return false;
    }
    if (value.equals("true")) {
      return true;
    }
    throw ControlPlaneException.validation("force", "must be true or false");
  }

  private static StreamRef ref(String tenant, String namespace, String stream) {
    return new StreamRef(
        PathNames.check("tenant", tenant),
        PathNames.check("namespace", namespace),
        PathNames.check("stream", stream));
  }
}
