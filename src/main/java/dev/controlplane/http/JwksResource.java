package dev.controlplane.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.controlplane.auth.SigningKey;
import dev.controlplane.auth.SigningKeys;
import dev.controlplane.cache.TenantCache;
import dev.controlplane.cache.TenantChanges;
import dev.controlplane.config.AuthConfig;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.metadata.store.ResourceStore;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Objects;

/**
 * The tenant's JWKS. Its own class with a full path: a root resource at {@code
 * /v1/tenants/{tenant}} would shadow TenantResource for {@code /v1/tenants/{t}} (JAX-RS picks one
 * root class by literals).
 */
@Path("/v1/tenants/{tenant}/.well-known")
@ApplicationScoped
public class JwksResource {

  private static final String NO_KEYS = "{\"keys\":[]}";

  @Inject SigningKeys keys;
  @Inject ResourceStore store;
  @Inject AuthConfig config;
  @Inject TenantChanges changes;

  /**
   * Each tenant's document as served, read by every broker and client that verifies its service
   * tokens: in memory, dropped when the tenant's keys change, as the exchange's signer is. A
   * tenant's keys go with the tenant, so a document held means the tenant exists.
   */
  private TenantCache<String> documents;

  @PostConstruct
  void init() {
    // Reached before any authentication, with a tenant name the caller chose: a made-up tenant
    // has no keys, and its empty answer is never kept.
    documents = changes.cache(this::document, Objects::nonNull);
  }

  @GET
  @Path("/jwks.json")
  @Produces("application/json")
  public Response jwks(@PathParam("tenant") String tenant) {
    PathNames.check("tenant", tenant);
    String document = documents.get(tenant);
    if (document == null) {
      store
          .tenant(tenant)
          .orElseThrow(
              () -> ControlPlaneException.notFound("tenant " + tenant + " does not exist"));
      document = NO_KEYS;
    }
    return Response.ok(document)
        .header("Cache-Control", "public, max-age=" + config.jwksMaxAge().toSeconds())
        .build();
  }

  /** The tenant's published keys as a JWKS, or null when it has none (or does not exist). */
  private String document(String tenant) {
    List<SigningKey> published = keys.published(tenant);
    if (published.isEmpty()) {
      return null;
    }
    ObjectNode reply = JsonBodies.JSON.createObjectNode();
    ArrayNode list = reply.putArray("keys");
    for (SigningKey k : published) {
      list.addObject()
          .put("kty", "OKP")
          .put("kid", k.kid())
          .put("alg", "EdDSA")
          .put("use", "sig")
          .put("crv", "Ed25519")
          .put("x", k.publicX());
    }
    return reply.toString();
  }
}
