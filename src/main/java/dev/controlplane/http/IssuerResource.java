package dev.controlplane.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.controlplane.auth.IssuerRecord;
import dev.controlplane.auth.IssuerStore;
import dev.controlplane.config.AuthConfig;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.rbac.Action;
import dev.controlplane.rbac.RbacObject;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.Encoded;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/** A tenant's trusted upstream issuers; {@code tenant.manage} on {@code tenant:{t}}. */
@Path("/v1/tenants/{tenant}/idp-issuers")
@ApplicationScoped
@Produces("application/json")
public class IssuerResource {

  @Inject IssuerStore issuers;
  @Inject AdminAuth auth;
  @Inject AuthConfig config;

  @GET
  public Response list(@PathParam("tenant") String tenant, @Context HttpHeaders headers) {
    auth.require(headers, tenant, Action.TENANT_MANAGE, RbacObject.tenant(tenant));
    ObjectNode reply = JsonBodies.JSON.createObjectNode();
    var list = reply.putArray("idp_issuers");
    issuers.list(tenant).forEach(i -> list.add(JsonBodies.toJson(i)));
    return Response.ok(reply.toString()).build();
  }

  @POST
  @Consumes("application/json")
  public Response upsert(
      @PathParam("tenant") String tenant, byte[] body, @Context HttpHeaders headers) {
    auth.require(headers, tenant, Action.TENANT_MANAGE, RbacObject.tenant(tenant));
    IssuerRecord record =
        JsonBodies.issuer(JsonBodies.parse(body, false)).validated(config.allowHttp(), "");
    boolean created = issuers.upsert(tenant, record);
    return Response.status(created ? 201 : 200)
        .entity(JsonBodies.toJson(record).toString())
        .build();
  }

  /** The issuer is one percent-encoded path segment (an issuer URL contains '/'). */
  @DELETE
  @Path("/{issuer: .+}")
  @Produces("*/*") // 204 without a body: any Accept will do (clients may ask for problem+json only)
  public Response delete(
      @PathParam("tenant") String tenant,
      @Encoded @PathParam("issuer") String encoded,
      @Context HttpHeaders headers) {
    auth.require(headers, tenant, Action.TENANT_MANAGE, RbacObject.tenant(tenant));
    String issuer = URLDecoder.decode(encoded.replace("+", "%2B"), StandardCharsets.UTF_8);
    if (!issuers.delete(tenant, issuer)) {
      throw ControlPlaneException.notFound(
          "issuer " + issuer + " is not configured for tenant " + tenant);
    }
    return Response.noContent().build();
  }
}
