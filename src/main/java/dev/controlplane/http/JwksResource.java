package dev.controlplane.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.controlplane.auth.SigningKeys;
import dev.controlplane.config.AuthConfig;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.metadata.store.ResourceStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Response;

/**
 * The tenant's JWKS. Its own class with a full path: a root resource at {@code
 * /v1/tenants/{tenant}} would shadow TenantResource for {@code /v1/tenants/{t}} (JAX-RS picks one
 * root class by literals).
 */
@Path("/v1/tenants/{tenant}/.well-known")
@ApplicationScoped
public class JwksResource {

  @Inject SigningKeys keys;
  @Inject ResourceStore store;
  @Inject AuthConfig config;

  @GET
  @Path("/jwks.json")
  @Produces("application/json")
  public Response jwks(@PathParam("tenant") String tenant) {
    PathNames.check("tenant", tenant);
    store
        .tenant(tenant)
        .orElseThrow(() -> ControlPlaneException.notFound("tenant " + tenant + " does not exist"));
    ObjectNode reply = JsonBodies.JSON.createObjectNode();
    ArrayNode list = reply.putArray("keys");
    keys.published(tenant)
        .forEach(
            k ->
                list.addObject()
                    .put("kty", "OKP")
                    .put("kid", k.kid())
                    .put("alg", "EdDSA")
                    .put("use", "sig")
                    .put("crv", "Ed25519")
                    .put("x", k.publicX()));
    return Response.ok(reply.toString())
        .header("Cache-Control", "public, max-age=" + config.jwksMaxAge().toSeconds())
        .build();
  }
}
