package dev.controlplane.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.controlplane.audit.CurrentActor;
import dev.controlplane.auth.ServiceTokens;
import dev.controlplane.auth.TokenExchange;
import dev.controlplane.auth.TokenRejected;
import dev.controlplane.error.ControlPlaneException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * The token exchange, asynchronous: while an issuer's keys are fetched the request holds no thread,
 * so a slow key server of one tenant cannot use up the threads every other request needs.
 */
@Path("/v1/tenants/{tenant}/token")
@ApplicationScoped
public class TokenResource {

  /**
   * The hints are all a body may hold (openapi/: additionalProperties false): a misspelt hint left
   * out silently would widen the token to everything the principal holds.
   */
  private static final Set<String> HINTS = Set.of("requested", "resources");

  @Inject TokenExchange exchange;

  /**
   * Any request type is let through to here, because the body is optional (openapi/) and a client
   * that sends none sends no Content-Type either: {@code @Consumes} would refuse it with 415. A
   * body that is there must be JSON.
   */
  @POST
  @Path("/exchange")
  @Produces("application/json")
  public void exchange(
      @PathParam("tenant") String tenant,
      byte[] body,
      @Context HttpHeaders headers,
      @Suspended AsyncResponse response) {
    JsonBodies.requireJsonIfAny(body, headers);
    String authorization = headers.getHeaderString(HttpHeaders.AUTHORIZATION);
    if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      throw exchange.refusedRequest(tenant, new TokenRejected("a bearer token is required"));
    }
    JsonNode request;
    try {
      request = JsonBodies.parse(body, true);
      JsonBodies.onlyFields(request, HINTS);
    } catch (ControlPlaneException malformed) {
      throw exchange.refusedRequest(tenant, malformed);
    }
    try {
      answer(tenant, authorization, request, response);
    } finally {
      // The answer may come on another thread, and this one goes back to the pool now: the
      // response filter that unbinds the caller would not run here.
      CurrentActor.clear();
    }
  }

  private void answer(
      String tenant, String authorization, JsonNode request, AsyncResponse response) {
    CompletionStage<ServiceTokens.Issued> outcome =
        exchange.exchange(
            tenant,
            authorization.substring(7).trim(),
            JsonBodies.texts(request, "requested"),
            JsonBodies.texts(request, "resources"));
    if (!outcome.toCompletableFuture().isDone()) {
      // Waiting for an issuer's keys: far beyond the key fetch deadline, so only a fault could
      // reach it. Not armed when the answer is already there, the usual case: a timer per request
      // on Liberty's managed scheduler cost about 5 % of a loaded node's CPU.
      response.setTimeout(30, TimeUnit.SECONDS);
    }
    outcome.whenComplete(
        (issued, failure) -> {
          if (failure == null) {
            response.resume(reply(issued));
          } else {
            response.resume(
                failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause()
                    : failure);
          }
        });
  }

  private static Response reply(ServiceTokens.Issued issued) {
    ObjectNode reply = JsonBodies.JSON.createObjectNode();
    reply.put("service_token", issued.token());
    reply.put("expires_in", issued.expiresIn());
    reply.put("token_type", "Bearer");
    return Response.ok(reply.toString()).header("Cache-Control", "no-store").build();
  }
}
