package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.TestDatabase;
import java.io.File;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every operation of openapi/controlplane.yaml, sent malformed input with valid credentials: bad
 * names in the path, bad paging parameters, bodies that are not documents, wrong content types. A
 * client's mistake must get a 4xx problem+json, never a 500; a malformed body is never accepted by
 * an operation that takes one; nothing is written.
 */
class MalformedRequestsIT {

  private static final Map<String, String> VALID =
      Map.of(
          "tenant", "acme-malformed",
          "namespace", "ns1",
          "stream", "s1",
          "broker", "b1",
          "bridge", "b1",
          "issuer", "https%3A%2F%2Fissuer.example%2F");

  private static final List<String> BAD_NAMES =
      List.of(
          "Upper", "a%20b", "-dash", "x".repeat(64), "%2E%2E", "a%00b", "%C3%A9t%C3%A9", "a%zz");

  private static final List<String> BAD_BODIES =
      List.of("", "{", "[]", "\"text\"", "null", "{\"apiVersion\": 5}", "\u0000\u0001\u0002");

  /**
   * A % not followed by two hex digits: {@link java.net.URI} refuses it, a raw request does not.
   */
  private static final Pattern MALFORMED_ESCAPE = Pattern.compile("%(?![0-9A-Fa-f]{2})");

  @BeforeAll
  static void server() throws Exception {
    SharedServer.ensureStarted();
  }

  @Test
  void noMalformedRequestGetsA500OrWritesAnything() throws Exception {
    Http http = Http.shared();
    assertThat(http.put("/v1/tenants/acme-malformed", Http.tenant("acme-malformed", "x")).status())
        .isEqualTo(201);
    long head = TestDatabase.headVersion();

    JsonNode paths =
        new ObjectMapper(new YAMLFactory())
            .readTree(new File("openapi/controlplane.yaml"))
            .path("paths");
    SoftAssertions soft = new SoftAssertions();
    int sent = 0;
    for (var path : (Iterable<Map.Entry<String, JsonNode>>) paths::fields) {
      String template = path.getKey();
      if (template.startsWith("/internal/") || template.startsWith("/health")) {
        continue;
      }
      for (var op : (Iterable<Map.Entry<String, JsonNode>>) path.getValue()::fields) {
        String method = op.getKey().toUpperCase();
        if (!List.of("GET", "PUT", "POST", "DELETE").contains(method)) {
          continue;
        }
        for (String request : requests(template, method, op.getValue())) {
          String[] parts = request.split(" ", 3);
          Http.Reply reply = send(http, method, parts[0], parts[1], parts[2]);
          sent++;
          String what = method + " " + parts[0] + " (" + parts[1] + ") " + abbreviate(parts[2]);
          soft.assertThat(reply.status()).as(what + ": " + reply.body()).isBetween(200, 499);
          boolean undecodablePath = undecodable(parts[0].split("\\?")[0]);
          if (undecodablePath) {
            // Liberty's web container refuses a path it cannot decode before any application sees
            // the request, with its own HTML 400 (docs/api.md, Errors).
            soft.assertThat(reply.status()).as(what).isEqualTo(400);
          }
          if (parts[0].contains("force=ture")) {
            soft.assertThat(reply.status()).as(what).isEqualTo(400);
            soft.assertThat(reply.body()).as(what).contains("\"field\":\"force\"");
          } else if (parts[0].contains("?")
              && MALFORMED_ESCAPE.matcher(parts[0].substring(parts[0].indexOf('?'))).find()
              && op.getValue().path("parameters").toString().contains("/limit")) {
            // An operation that reads its query must say what is wrong with it; one that reads
            // none may ignore it, as it ignores unknown parameters.
            soft.assertThat(reply.status()).as(what).isEqualTo(400);
            soft.assertThat(reply.body()).as(what).contains("percent-encoding");
          }
          if (reply.status() >= 400 && !undecodablePath) {
            soft.assertThat(reply.contentType())
                .as(what + " content type")
                .startsWith("application/problem+json");
            soft.assertThat(reply.body()).as(what + " body").contains("\"code\"");
            soft.assertThat(reply.body())
                .as(what + ": the framework's internals are not a client's error message")
                .doesNotContain("RESTEASY")
                .doesNotContain("java.");
          }
          if (op.getValue().has("requestBody") && !parts[2].equals("-")) {
            soft.assertThat(reply.status()).as(what + " must not be accepted").isGreaterThan(299);
          }
        }
      }
    }
    soft.assertAll();
    assertThat(sent).isGreaterThan(300);
    assertThat(TestDatabase.headVersion()).as("nothing was written").isEqualTo(head);
  }

  /**
   * Free text PostgreSQL cannot store (a NUL) or that has no UTF-8 form (an unpaired surrogate), in
   * JSON and in YAML: refused naming the field, a dry run included, before anything reaches the
   * database.
   */
  @Test
  void textTheDatabaseCannotHoldIsRefusedNamingItsField() {
    Http http = Http.shared();
    for (String escaped : List.of("a\\u0000b", "\\ud800", "bell \\u0007")) {
      for (String dryRun : List.of("", "?dryRun=All")) {
        Http.Reply json =
            http.put("/v1/tenants/text-nul" + dryRun, Http.tenant("text-nul", escaped));
        assertThat(json.status()).as(escaped + dryRun + ": " + json.body()).isEqualTo(400);
        assertThat(json.json().path("code").asText()).isEqualTo("validation_failed");
        assertThat(json.body()).contains("spec.description").doesNotContain("UTF8");
      }
      String yaml =
          "apiVersion: controlplane/v1\nkind: Tenant\nmetadata:\n  name: text-nul\n"
              + "spec:\n  description: \""
              + escaped
              + "\"\n";
      Http.Reply reply = http.put("/v1/tenants/text-nul", yaml, "application/yaml");
      assertThat(reply.status()).as(escaped + " in YAML: " + reply.body()).isEqualTo(400);
      assertThat(reply.body()).contains("spec.description");
    }
    assertThat(http.get("/v1/tenants/text-nul").status()).as("nothing stored").isEqualTo(404);
    Http.Reply multiLine =
        http.put("/v1/tenants/text-nul", Http.tenant("text-nul", "two\\nlines\\tand a tab"));
    assertThat(multiLine.status()).as(multiLine.body()).isEqualTo(201);
    assertThat(http.get("/v1/tenants/text-nul").json().path("spec").path("description").asText())
        .isEqualTo("two\nlines\tand a tab");
  }

  /** "path contentType body" lines; "-" for no content type or no body. */
  private static List<String> requests(String template, String method, JsonNode operation) {
    List<String> out = new ArrayList<>();
    String valid = fill(template, null, null);
    for (String param : VALID.keySet()) {
      if (template.contains("{" + param + "}")) {
        for (String bad : BAD_NAMES) {
          out.add(fill(template, param, bad) + " - -");
        }
      }
    }
    if (method.equals("GET")) {
      for (String query :
          List.of(
              "limit=abc",
              "limit=0",
              "limit=1001",
              "limit=-1",
              "page_token=%25%25%25",
              "page_token=%zz",
              // Well-formed base64 of a NUL, and of "a" and a NUL: nothing a page ends on.
              "page_token=AA",
              "page_token=YQA",
              "limit=%")) {
        out.add(valid + "?" + query + " - -");
      }
    } else if (method.equals("DELETE")) {
      if (operation.path("parameters").toString().contains("/dryRun")) {
        out.add(valid + "?dryRun=maybe - -");
        out.add(valid + "?dryRun=%g1 - -");
      }
      if (operation.path("parameters").toString().contains("\"force\"")) {
        out.add(valid + "?force=ture - -");
      }
    } else {
      for (String body : BAD_BODIES) {
        out.add(valid + " application/json " + body);
        out.add(valid + " application/yaml " + body);
      }
      out.add(valid + " text/plain {}");
      out.add(valid + " application/xml <a/>");
    }
    return out;
  }

  private static boolean undecodable(String path) {
    return path.contains("%00") || MALFORMED_ESCAPE.matcher(path).find();
  }

  private static String fill(String template, String badParam, String bad) {
    String out = template;
    for (var e : VALID.entrySet()) {
      out = out.replace("{" + e.getKey() + "}", e.getKey().equals(badParam) ? bad : e.getValue());
    }
    return out;
  }

  private static Http.Reply send(
      Http http, String method, String path, String contentType, String body) {
    if (MALFORMED_ESCAPE.matcher(path).find()) {
      return http.sendVerbatim(method, path);
    }
    HttpRequest.BodyPublisher publisher =
        body.equals("-")
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body);
    HttpRequest.Builder request = http.request(path).method(method, publisher);
    if (!contentType.equals("-")) {
      request.header("Content-Type", contentType);
    }
    return http.send(request);
  }

  private static String abbreviate(String body) {
    return body.length() > 20 ? body.substring(0, 20) + "…" : body;
  }
}
