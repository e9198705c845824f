package dev.controlplane.cli.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * An RFC 9457 problem+json error of the server (docs/api.md, Errors), or what cpctl makes of a
 * response that is not one.
 */
public record Problem(int status, String code, String detail, List<String> fieldErrors) {

  public static Problem of(int status, JsonNode body, String rawBody) {
    if (body == null || !body.isObject() || !body.hasNonNull("code")) {
      String text = rawBody == null ? "" : rawBody.strip();
      return new Problem(
          status, "http_" + status, text.isEmpty() ? "(no details)" : text, List.of());
    }
    List<String> fields = new ArrayList<>();
    body.path("errors")
        .forEach(e -> fields.add(e.path("field").asText() + ": " + e.path("message").asText()));
    String detail = body.path("detail").asText(body.path("title").asText(""));
    return new Problem(status, body.path("code").asText(), detail, List.copyOf(fields));
  }

  /**
   * One line: {@code conflict (409): metadata.version 3 is not the current version 5}; the fields
   * of a validation failure follow the detail.
   */
  public String oneLine() {
    String what = fieldErrors.isEmpty() ? detail : String.join("; ", fieldErrors);
    return code + " (" + status + "): " + what;
  }
}
