package dev.controlplane.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.controlplane.auth.IssuerAdmin;
import dev.controlplane.auth.IssuerRecord;
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

/**
 * A tenant's trusted upstream issuers: listed and deleted with {@code tenant.manage}, created and
 * changed with the tenant-admin set (IssuerAdmin says why).
 */
@Path("/v1/tenants/{tenant}/idp-issuers")
@ApplicationScoped
@Produces("application/json")
public class IssuerResource {

  @Inject IssuerAdmin issuers;
  @Inject AdminAuth auth;

  @GET
  public Response list(@PathParam("tenant") String tenant, @Context HttpHeaders headers) {
    ObjectNode reply = JsonBodies.JSON.createObjectNode();
    var list = reply.putArray("idp_issuers");
    issuers
        .list(tenant, auth.authenticate(headers, tenant))
        .forEach(i -> list.add(JsonBodies.toJson(i)));
    return Response.ok(reply.toString()).build();
  }

  @POST
  @Consumes("application/json")
  public Response upsert(
      @PathParam("tenant") String tenant, byte[] body, @Context HttpHeaders headers) {
    var caller = auth.authenticate(headers, tenant);
    IssuerRecord record = JsonBodies.issuer(JsonBodies.parse(body, false));
    boolean created = issuers.upsert(tenant, record, caller);
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
    var caller = auth.authenticate(headers, tenant);
    String issuer = URLDecoder.decode(encoded.replace("+", "%2B"), StandardCharsets.UTF_8);
    issuers.delete(tenant, issuer, caller);
    return Response.noContent().build();
  }
}
