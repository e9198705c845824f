package dev.controlplane.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.metadata.codec.DocumentFormat;
import dev.controlplane.metadata.codec.ResourceCodec;
import dev.controlplane.metadata.model.Resource;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;

/** Reads request documents and writes responses in the format the client asked for. */
final class Documents {

  static final String YAML = "application/yaml";

  private Documents() {}

  static DocumentFormat requestFormat(HttpHeaders headers) {
    MediaType type = headers.getMediaType();
    if (type == null) {
      throw ControlPlaneException.validation(
          "Content-Type", "is required: application/json or application/yaml");
    }
    return isYaml(type) ? DocumentFormat.YAML : DocumentFormat.JSON;
  }

  static DocumentFormat responseFormat(HttpHeaders headers) {
    for (MediaType accepted : headers.getAcceptableMediaTypes()) {
      if (isYaml(accepted)) {
        return DocumentFormat.YAML;
      }
      if (accepted.isCompatible(MediaType.APPLICATION_JSON_TYPE)) {
        return DocumentFormat.JSON;
      }
    }
    return DocumentFormat.JSON;
  }

  static JsonNode parse(ResourceCodec codec, byte[] body, HttpHeaders headers) {
    if (body == null || body.length == 0) {
      throw ControlPlaneException.validation("body", "is required");
    }
    return codec.parse(body, requestFormat(headers));
  }

  /** A resource read (or deleted): 200 with its document and its entity tag. */
  static Response.ResponseBuilder ok(ResourceCodec codec, Resource resource, HttpHeaders headers) {
    return written(200, codec, resource, headers);
  }

  /** A resource as stored by a write, with its new entity tag (its metadata version). */
  static Response.ResponseBuilder written(
      int status, ResourceCodec codec, Resource resource, HttpHeaders headers) {
    return body(Response.status(status), codec, codec.toTree(resource), headers)
        .header(HttpHeaders.ETAG, Conditions.etag(resource));
  }

  static Response.ResponseBuilder body(
      Response.ResponseBuilder response, ResourceCodec codec, JsonNode tree, HttpHeaders headers) {
    DocumentFormat format = responseFormat(headers);
    return response.type(format.mediaType()).entity(codec.write(tree, format));
  }

  static Response list(
      ResourceCodec codec, List<? extends Resource> items, String nextToken, HttpHeaders headers) {
    var tree = codec.newObject();
    var array = tree.putArray("items");
    items.forEach(r -> array.add(codec.toTree(r)));
    tree.put("next_page_token", nextToken == null ? "" : nextToken);
    return body(Response.ok(), codec, tree, headers).build();
  }

  private static boolean isYaml(MediaType type) {
    return type.getSubtype().equals("yaml") || type.getSubtype().equals("x-yaml");
  }
}
