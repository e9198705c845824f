package dev.controlplane.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.controlplane.auth.IssuerRecord;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.metadata.codec.StrictJson;
import jakarta.ws.rs.NotSupportedException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** Plain JSON bodies of the auth endpoints (not declarative resources). */
final class JsonBodies {

  static final ObjectMapper JSON = StrictJson.mapper();

  private JsonBodies() {}

  static JsonNode parse(byte[] body, boolean emptyIsObject) {
    if (body == null || body.length == 0) {
      if (emptyIsObject) {
        return JSON.createObjectNode();
      }
      throw ControlPlaneException.validation("body", "a JSON object is required");
    }
    try {
      JsonNode node = JSON.readTree(body);
      if (node == null || !node.isObject()) {
        throw ControlPlaneException.validation("body", "must be a JSON object");
      }
      return node;
    } catch (JsonProcessingException e) {
      throw ControlPlaneException.validation("body", "is not valid JSON" + StrictJson.why(e));
    } catch (IOException e) {
      throw ControlPlaneException.validation("body", "could not be read");
    }
  }

  /** Whether a Content-Type header value is JSON (any parameters, such as a charset, allowed). */
  static boolean isJson(String contentType) {
    if (contentType == null) {
      return false;
    }
    try {
      return MediaType.APPLICATION_JSON_TYPE.isCompatible(MediaType.valueOf(contentType));
    } catch (IllegalArgumentException malformed) {
      return false;
    }
  }

  /**
   * Refuses a body that is not JSON with 415. In place of {@code @Consumes} on the endpoints that
   * also take a request without a body (the exchange, the RBAC DELETEs, which read their query
   * instead): such a request carries no Content-Type, and {@code @Consumes} would refuse it.
   */
  static void requireJsonIfAny(byte[] body, HttpHeaders headers) {
    if (body != null
        && body.length > 0
        && !isJson(headers.getHeaderString(HttpHeaders.CONTENT_TYPE))) {
      throw new NotSupportedException();
    }
  }

  /** Refuses the first field of {@code node} that is not one of {@code allowed}, naming it. */
  static void onlyFields(JsonNode node, Set<String> allowed) {
    onlyFields(node, "", allowed);
  }

  /**
   * The same for an object inside the body, whose fields are named after {@code prefix} ({@code
   * claim_mappings.}): a misspelt field dropped without a word left its default in place.
   */
  static void onlyFields(JsonNode node, String prefix, Set<String> allowed) {
    for (var names = node.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!allowed.contains(name)) {
        throw ControlPlaneException.validation(
            prefix + name,
            "is not a known field (allowed: " + String.join(", ", new TreeSet<>(allowed)) + ")");
      }
    }
  }

  static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isTextual()) {
      throw ControlPlaneException.validation(field, "must be a string");
    }
    return value.asText();
  }

  static List<String> texts(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return List.of();
    }
    if (!value.isArray()) {
      throw ControlPlaneException.validation(field, "must be an array of strings");
    }
    List<String> out = new ArrayList<>();
    for (JsonNode item : value) {
      if (!item.isTextual()) {
        throw ControlPlaneException.validation(field, "must be an array of strings");
      }
      out.add(item.asText());
    }
    return out;
  }

  private static final Set<String> ISSUER_FIELDS =
      Set.of("issuer", "audiences", "discovery_url", "jwks_url", "claim_mappings");
  private static final Set<String> CLAIM_MAPPING_FIELDS =
      Set.of("subject_claim", "groups_claim", "groups_prefix");

  static IssuerRecord issuer(JsonNode node) {
    return issuer(node, "");
  }

  /** An issuer, its fields named after {@code prefix} in errors ({@code idp_issuers[0].}). */
  static IssuerRecord issuer(JsonNode node, String prefix) {
    onlyFields(node, prefix, ISSUER_FIELDS);
    JsonNode mappings = node.path("claim_mappings");
    if (!mappings.isMissingNode() && !mappings.isNull() && !mappings.isObject()) {
      throw ControlPlaneException.validation(prefix + "claim_mappings", "must be an object");
    }
    if (mappings.isObject()) {
      onlyFields(mappings, prefix + "claim_mappings.", CLAIM_MAPPING_FIELDS);
    }
    return new IssuerRecord(
        text(node, "issuer"),
        texts(node, "audiences"),
        text(node, "discovery_url"),
        text(node, "jwks_url"),
        mappings.isObject() ? text(mappings, "subject_claim") : null,
        mappings.isObject() ? text(mappings, "groups_claim") : null,
        mappings.isObject() ? text(mappings, "groups_prefix") : null);
  }

  static ObjectNode toJson(IssuerRecord r) {
    ObjectNode node = JSON.createObjectNode();
    node.put("issuer", r.issuer());
    ArrayNode audiences = node.putArray("audiences");
    r.audiences().forEach(audiences::add);
    node.put("discovery_url", r.discoveryUrl());
    node.put("jwks_url", r.jwksUrl());
    ObjectNode mappings = node.putObject("claim_mappings");
    mappings.put("subject_claim", r.subjectClaim());
    mappings.put("groups_claim", r.groupsClaim());
    mappings.put("groups_prefix", r.groupsPrefix());
    return node;
  }
}
