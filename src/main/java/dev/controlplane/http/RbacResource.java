package dev.controlplane.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.controlplane.auth.IssuerAdmin;
import dev.controlplane.auth.IssuerRecord;
import dev.controlplane.auth.IssuerStore;
import dev.controlplane.rbac.Grouping;
import dev.controlplane.rbac.Permission;
import dev.controlplane.rbac.PolicyRule;
import dev.controlplane.rbac.RbacAdmin;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.util.List;

/**
 * RBAC policies and groupings of a tenant. The permission checks and scope rules are RbacAdmin's;
 * DELETE takes the object either as query parameters or as a JSON body. A group subject is shown
 * with the {@code issuer} whose tokens assert it (null when none does), since a group means the
 * group of one issuer.
 */
@Path("/v1/tenants/{tenant}/rbac")
@ApplicationScoped
@Produces("application/json")
public class RbacResource {

  @Inject RbacAdmin rbac;
  @Inject AdminAuth auth;
  @Inject IssuerStore issuers;

  @GET
  @Path("/policies")
  public Response policies(@PathParam("tenant") String tenant, @Context HttpHeaders headers) {
    List<PolicyRule> rules = rbac.policies(tenant, auth.authenticate(headers, tenant));
    List<IssuerRecord> trusted = issuers.list(tenant);
    ObjectNode reply = JsonBodies.JSON.createObjectNode();
    var list = reply.putArray("policies");
    rules.forEach(r -> list.add(withIssuer(policy(r), r.subject(), trusted)));
    return Response.ok(reply.toString()).build();
  }

  @POST
  @Path("/policies")
  public Response addPolicy(
      @PathParam("tenant") String tenant, byte[] body, @Context HttpHeaders headers) {
    JsonBodies.requireJsonIfAny(body, headers);
    List<Permission> caller = auth.authenticate(headers, tenant);
    PolicyRule rule = policy(JsonBodies.parse(body, false));
    boolean created = rbac.addPolicy(tenant, rule, caller);
    ObjectNode stored = withIssuer(policy(rule), rule.subject(), issuers.list(tenant));
    return Response.status(created ? 201 : 200).entity(stored.toString()).build();
  }

  @DELETE
  @Path("/policies")
  @Produces("*/*") // 204 without a body: any Accept will do (clients may ask for problem+json only)
  public Response removePolicy(
      @PathParam("tenant") String tenant,
      @QueryParam("subject") String subject,
      @QueryParam("object") String object,
      @QueryParam("action") String action,
      byte[] body,
      @Context HttpHeaders headers) {
    JsonBodies.requireJsonIfAny(body, headers);
    List<Permission> caller = auth.authenticate(headers, tenant);
    PolicyRule rule =
        subject != null
            ? new PolicyRule(subject, object, action)
            : policy(JsonBodies.parse(body, false));
    rbac.removePolicy(tenant, rule, caller);
    return Response.noContent().build();
  }

  @GET
  @Path("/groupings")
  public Response groupings(@PathParam("tenant") String tenant, @Context HttpHeaders headers) {
    List<Grouping> edges = rbac.groupings(tenant, auth.authenticate(headers, tenant));
    List<IssuerRecord> trusted = issuers.list(tenant);
    ObjectNode reply = JsonBodies.JSON.createObjectNode();
    var list = reply.putArray("groupings");
    edges.forEach(g -> list.add(withIssuer(grouping(g), g.principal(), trusted)));
    return Response.ok(reply.toString()).build();
  }

  @POST
  @Path("/groupings")
  public Response addGrouping(
      @PathParam("tenant") String tenant, byte[] body, @Context HttpHeaders headers) {
    JsonBodies.requireJsonIfAny(body, headers);
    List<Permission> caller = auth.authenticate(headers, tenant);
    Grouping edge = grouping(JsonBodies.parse(body, false));
    boolean created = rbac.addGrouping(tenant, edge, caller);
    ObjectNode stored = withIssuer(grouping(edge), edge.principal(), issuers.list(tenant));
    return Response.status(created ? 201 : 200).entity(stored.toString()).build();
  }

  @DELETE
  @Path("/groupings")
  @Produces("*/*") // 204 without a body: any Accept will do (clients may ask for problem+json only)
  public Response removeGrouping(
      @PathParam("tenant") String tenant,
      @QueryParam("principal") String principal,
      @QueryParam("role") String role,
      byte[] body,
      @Context HttpHeaders headers) {
    JsonBodies.requireJsonIfAny(body, headers);
    List<Permission> caller = auth.authenticate(headers, tenant);
    Grouping edge =
        principal != null ? new Grouping(principal, role) : grouping(JsonBodies.parse(body, false));
    rbac.removeGrouping(tenant, edge, caller);
    return Response.noContent().build();
  }

  private static ObjectNode withIssuer(
      ObjectNode node, String subject, List<IssuerRecord> trusted) {
    if (subject != null && subject.startsWith("group:")) {
      node.put("issuer", IssuerAdmin.assertingIssuer(subject, trusted).orElse(null));
    }
    return node;
  }

  /**
   * A misspelt field was dropped without a word. {@code issuer} is in the answers only (read-only
   * in the contract), and taken back and ignored, so an answer can be sent as it came.
   */
  private static final java.util.Set<String> POLICY_FIELDS =
      java.util.Set.of("subject", "object", "action", "issuer");

  private static final java.util.Set<String> GROUPING_FIELDS =
      java.util.Set.of("principal", "role", "issuer");

  private static PolicyRule policy(JsonNode node) {
    JsonBodies.onlyFields(node, POLICY_FIELDS);
    return new PolicyRule(
        JsonBodies.text(node, "subject"),
        JsonBodies.text(node, "object"),
        JsonBodies.text(node, "action"));
  }

  private static ObjectNode policy(PolicyRule rule) {
    return JsonBodies.JSON
        .createObjectNode()
        .put("subject", rule.subject())
        .put("object", rule.object())
        .put("action", rule.action());
  }

  private static Grouping grouping(JsonNode node) {
    JsonBodies.onlyFields(node, GROUPING_FIELDS);
    return new Grouping(JsonBodies.text(node, "principal"), JsonBodies.text(node, "role"));
  }

  private static ObjectNode grouping(Grouping g) {
    return JsonBodies.JSON.createObjectNode().put("principal", g.principal()).put("role", g.role());
  }
}
