package dev.controlplane.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.controlplane.auth.ServiceTokens;
import dev.controlplane.auth.TokenExchange;
import dev.controlplane.auth.TokenRejected;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

/** The token exchange. */
@Path("/v1/tenants/{tenant}/token")
@ApplicationScoped
public class TokenResource {

  @Inject TokenExchange exchange;

  @POST
  @Path("/exchange")
  @Consumes("application/json")
  @Produces("application/json")
  public Response exchange(
      @PathParam("tenant") String tenant, byte[] body, @Context HttpHeaders headers) {
    String authorization = headers.getHeaderString(HttpHeaders.AUTHORIZATION);
    if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      throw new TokenRejected("a bearer token is required");
    }
    JsonNode request = JsonBodies.parse(body, true);
    ServiceTokens.Issued issued =
        exchange.exchange(
            tenant,
            authorization.substring(7).trim(),
            JsonBodies.texts(request, "requested"),
            JsonBodies.texts(request, "resources"));
    ObjectNode reply = JsonBodies.JSON.createObjectNode();
    reply.put("service_token", issued.token());
    reply.put("expires_in", issued.expiresIn());
    reply.put("token_type", "Bearer");
    return Response.ok(reply.toString()).header("Cache-Control", "no-store").build();
  }
}
