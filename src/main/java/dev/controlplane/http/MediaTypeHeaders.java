package dev.controlplane.http;

import dev.controlplane.error.ControlPlaneException;
import jakarta.annotation.Priority;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.ext.Provider;

/**
 * Refuses an {@code Accept} or {@code Content-Type} header that does not parse, with a 400 naming
 * the header, before the request is matched. RESTEasy parses both while it matches, and answers a
 * bad one with the servlet container's plain-text 400, or, for an {@code Accept} whose {@code q} is
 * not a number, with an exception the mappers can only see as a server fault (a 500).
 */
@Provider
@PreMatching
@Priority(1)
public class MediaTypeHeaders implements ContainerRequestFilter {

  @Override
  public void filter(ContainerRequestContext request) {
    String accept = request.getHeaderString(HttpHeaders.ACCEPT);
    if (accept != null) {
      for (String item : accept.split(",")) {
        if (!item.isBlank() && !isMediaType(item.trim(), true)) {
          throw ControlPlaneException.validation(
              HttpHeaders.ACCEPT,
              "must be a list of media types, each with a q between 0 and 1 if any (for example"
                  + " application/json, application/yaml;q=0.5)");
        }
      }
    }
    String contentType = request.getHeaderString(HttpHeaders.CONTENT_TYPE);
    if (contentType != null && !isMediaType(contentType.trim(), false)) {
      throw ControlPlaneException.validation(
          HttpHeaders.CONTENT_TYPE, "must be a media type, such as application/json");
    }
  }

  private static boolean isMediaType(String text, boolean weighted) {
    MediaType type;
    try {
      type = MediaType.valueOf(text);
    } catch (IllegalArgumentException malformed) {
      return false;
    }
    String q = type.getParameters().get("q");
    if (!weighted || q == null) {
      return true;
    }
    try {
      float weight = Float.parseFloat(q);
      return weight >= 0 && weight <= 1;
    } catch (NumberFormatException notANumber) {
      return false;
    }
  }
}
