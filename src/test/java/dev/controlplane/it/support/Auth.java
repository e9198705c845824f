package dev.controlplane.it.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;

/** Bootstrap, token exchange and admin calls against the shared server. */
public final class Auth {

  private Auth() {}

  public static String principal(String issuer, String subject) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256")
                  .digest((issuer + "|" + subject).getBytes(StandardCharsets.UTF_8)));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** An issuer record for provider issuer {@code id}, found through discovery. */
  public static ObjectNode issuerRecord(String id, String groupsClaim) {
    // Creates the issuer's key in the provider now, not inside the server's 2 s fetch timeout.
    OidcProvider.key(id);
    warm(OidcProvider.discoveryUrl(id));
    warm(OidcProvider.jwksUrl(id));
    ObjectNode issuer = Http.JSON.createObjectNode();
    issuer.put("issuer", OidcProvider.issuer(id));
    issuer.putArray("audiences").add(OidcProvider.AUDIENCE);
    issuer.put("discovery_url", OidcProvider.discoveryUrl(id));
    if (groupsClaim != null) {
      issuer.putObject("claim_mappings").put("groups_claim", groupsClaim);
    }
    return issuer;
  }

  private static void warm(String url) {
    try {
      java.net.http.HttpClient.newHttpClient()
          .send(
              HttpRequest.newBuilder(java.net.URI.create(url)).build(),
              java.net.http.HttpResponse.BodyHandlers.discarding());
    } catch (Exception e) {
      throw new IllegalStateException("the test OIDC provider does not answer " + url, e);
    }
  }

  public static Http.Reply bootstrap(
      String tenant, List<ObjectNode> issuers, List<String> admins, String secret) {
    return bootstrap(SharedServer.bootstrapPort(), tenant, issuers, admins, secret);
  }

  /** The bootstrap call against the bootstrap listener on {@code port}. */
  public static Http.Reply bootstrap(
      int port, String tenant, List<ObjectNode> issuers, List<String> admins, String secret) {
    ObjectNode body = Http.JSON.createObjectNode();
    body.put("display_name", "Tenant " + tenant);
    var list = body.putArray("idp_issuers");
    issuers.forEach(list::add);
    var principals = body.putArray("initial_admin_principals");
    admins.forEach(principals::add);
    HttpRequest.Builder request =
        new Http(port, null)
            .request("/internal/bootstrap/tenants/" + tenant + "/initialize")
            .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
            .header("Content-Type", "application/json");
    if (secret != null) {
      request.header("X-Service-Bootstrap-Token", secret);
    }
    return new Http(port, null).send(request);
  }

  /** Bootstraps {@code tenant} trusting provider issuer {@code id}, with one admin subject. */
  public static void bootstrap(String tenant, String id, String groupsClaim, String adminSubject) {
    var reply =
        bootstrap(
            tenant,
            List.of(issuerRecord(id, groupsClaim)),
            List.of(principal(OidcProvider.issuer(id), adminSubject)),
            SharedServer.BOOTSTRAP_TOKEN);
    if (reply.status() != 201) {
      throw new AssertionError(
          "bootstrap of " + tenant + " failed: " + reply.status() + " " + reply.body());
    }
  }

  public static Http.Reply exchange(String tenant, String upstream, String body) {
    return exchange(SharedServer.httpPort(), tenant, upstream, body);
  }

  /** The token exchange on the node whose HTTP port is {@code port}. */
  public static Http.Reply exchange(int port, String tenant, String upstream, String body) {
    Http http = new Http(port, upstream);
    return http.send(
        http.request("/v1/tenants/" + tenant + "/token/exchange")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .header("Content-Type", "application/json"));
  }

  /** The service token of a successful exchange. */
  public static String serviceToken(String tenant, String upstream, String body) {
    var reply = exchange(tenant, upstream, body);
    if (reply.status() != 200) {
      throw new AssertionError("exchange failed: " + reply.status() + " " + reply.body());
    }
    return reply.json().path("service_token").asText();
  }

  /** The {@code perms} of the service token an exchange answered with. */
  public static List<String> perms(Http.Reply reply) {
    try {
      return com.nimbusds.jwt.SignedJWT.parse(reply.json().path("service_token").asText())
          .getJWTClaimsSet()
          .getStringListClaim("perms");
    } catch (java.text.ParseException e) {
      throw new AssertionError(reply.body(), e);
    }
  }

  public static Http.Reply post(String token, String path, JsonNode body) {
    Http http = new Http(SharedServer.httpPort(), token);
    return http.send(
        http.request(path)
            .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
            .header("Content-Type", "application/json"));
  }
}
