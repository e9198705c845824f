package dev.controlplane.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import jakarta.ws.rs.core.Response;

/** Builds RFC 9457 problem+json responses with the stable {@code code} of decisions.md. */
final class Problems {

  static final String MEDIA_TYPE = "application/problem+json";
  private static final ObjectMapper JSON = new ObjectMapper();

  private Problems() {}

  static Response of(ControlPlaneException e) {
    return of(e, null);
  }

  /**
   * The problem for {@code e}; a refusal by a node that does not lead names the leader in the body
   * ({@code leader}, {@code leader_url}) and, when its URL is known, sends the client there with
   * {@code Location} (the same path and query on the leader).
   */
  static Response of(ControlPlaneException e, java.net.URI request) {
    int status = status(e.code());
    ObjectNode body = body(status, e.code().problemCode(), title(status), e.getMessage());
    if (!e.fieldErrors().isEmpty()) {
      ArrayNode errors = body.putArray("errors");
      e.fieldErrors()
          .forEach(f -> errors.addObject().put("field", f.field()).put("message", f.message()));
    }
    Response.ResponseBuilder response =
        Response.status(status).type(MEDIA_TYPE).entity(body.toString());
    if (status == 503) {
      response.header("Retry-After", "1");
      e.leaderHint()
          .ifPresent(
              leader -> {
                body.put("leader", leader.nodeId());
                if (leader.httpUrl() != null) {
                  body.put("leader_url", leader.httpUrl());
                  response.header("Location", onLeader(leader.httpUrl(), request));
                }
              });
      response.entity(body.toString());
    }
    if (status == 401) {
      response.header("WWW-Authenticate", "Bearer error=\"invalid_token\"");
    }
    return response.build();
  }

  private static String onLeader(String leaderUrl, java.net.URI request) {
    String base =
        leaderUrl.endsWith("/") ? leaderUrl.substring(0, leaderUrl.length() - 1) : leaderUrl;
    if (request == null) {
      return base + "/";
    }
    String path =
        request.getRawPath() == null || request.getRawPath().isEmpty() ? "/" : request.getRawPath();
    return base + path + (request.getRawQuery() == null ? "" : "?" + request.getRawQuery());
  }

  static Response of(int status, String code, String detail) {
    return Response.status(status)
        .type(MEDIA_TYPE)
        .entity(body(status, code, title(status), detail).toString())
        .build();
  }

  private static ObjectNode body(int status, String code, String title, String detail) {
    ObjectNode body = JSON.createObjectNode();
    body.put("type", "urn:problem-type:controlplane:" + code);
    body.put("title", title);
    body.put("status", status);
    body.put("detail", detail);
    body.put("code", code);
    return body;
  }

  static int status(ErrorCode code) {
    return switch (code) {
      case VALIDATION_FAILED, OUT_OF_RANGE -> 400;
      case INVALID_TOKEN -> 401;
      case FORBIDDEN -> 403;
      case NOT_FOUND -> 404;
      case CONFLICT, ALREADY_EXISTS, FAILED_PRECONDITION -> 409;
      case PRECONDITION_FAILED -> 412;
      case PAYLOAD_TOO_LARGE -> 413;
      case RESOURCE_EXHAUSTED, RATE_LIMITED -> 429;
      case NOT_LEADER, UNAVAILABLE -> 503;
    };
  }

  static String title(int status) {
    return switch (status) {
      case 400 -> "Bad Request";
      case 401 -> "Unauthorized";
      case 403 -> "Forbidden";
      case 404 -> "Not Found";
      case 405 -> "Method Not Allowed";
      case 406 -> "Not Acceptable";
      case 409 -> "Conflict";
      case 412 -> "Precondition Failed";
      case 413 -> "Content Too Large";
      case 415 -> "Unsupported Media Type";
      case 429 -> "Too Many Requests";
      case 503 -> "Service Unavailable";
      default -> status >= 500 ? "Internal Server Error" : "Error";
    };
  }
}
