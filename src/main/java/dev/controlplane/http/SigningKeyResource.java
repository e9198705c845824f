package dev.controlplane.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.controlplane.auth.SigningKey;
import dev.controlplane.auth.SigningKeys;
import dev.controlplane.rbac.Action;
import dev.controlplane.rbac.RbacObject;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

/** The tenant's signing keys (public facts only) and manual rotation; {@code tenant.manage}. */
@Path("/v1/tenants/{tenant}/signing-keys")
@ApplicationScoped
@Produces("application/json")
public class SigningKeyResource {

  @Inject SigningKeys keys;
  @Inject AdminAuth auth;

  @GET
  public Response list(@PathParam("tenant") String tenant, @Context HttpHeaders headers) {
    auth.require(headers, tenant, Action.TENANT_MANAGE, RbacObject.tenant(tenant));
    ObjectNode reply = JsonBodies.JSON.createObjectNode();
    var list = reply.putArray("keys");
    keys.all(tenant).forEach(k -> list.add(json(k)));
    return Response.ok(reply.toString()).build();
  }

  /**
   * Publishes the next key now; it signs once every JWKS cache has seen it (202: it happens later).
   */
  @POST
  @Path("/rotate")
  public Response rotate(@PathParam("tenant") String tenant, @Context HttpHeaders headers) {
    auth.require(headers, tenant, Action.TENANT_MANAGE, RbacObject.tenant(tenant));
    return Response.status(202).entity(json(keys.rotate(tenant)).toString()).build();
  }

  private static ObjectNode json(SigningKey k) {
    ObjectNode node =
        JsonBodies.JSON
            .createObjectNode()
            .put("kid", k.kid())
            .put("state", k.state())
            .put("x", k.publicX());
    node.put("activate_after", k.activateAfter() == null ? null : k.activateAfter().toString());
    node.put("retire_after", k.retireAfter() == null ? null : k.retireAfter().toString());
    return node;
  }
}
