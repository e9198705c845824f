package dev.controlplane.http;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.metadata.VersionMatch;
import dev.controlplane.metadata.model.Resource;
import jakarta.ws.rs.core.HttpHeaders;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * HTTP's own optimistic concurrency (RFC 9110): a resource's entity tag is its metadata version,
 * {@code "42"}; {@code If-Match} (a list of tags or {@code *}) and, on PUT, {@code If-None-Match:
 * *} become a {@link VersionMatch} that the write checks in its transaction. A weak tag ({@code
 * W/"42"}) never matches, as If-Match compares strongly.
 */
final class Conditions {

  static final String IF_MATCH = "If-Match";
  static final String IF_NONE_MATCH = "If-None-Match";
  private static final Pattern TAG = Pattern.compile("\\s*(W/)?\"([^\"]*)\"\\s*(,|$)");

  private Conditions() {}

  /** The entity tag of {@code resource}: its metadata version, quoted. */
  static String etag(Resource resource) {
    return "\"" + resource.version() + "\"";
  }

  /** The precondition of a PUT: If-Match, or If-None-Match: * (create only). */
  static VersionMatch forPut(HttpHeaders headers) {
    String ifNoneMatch = header(headers, IF_NONE_MATCH);
    if (ifNoneMatch == null) {
      return forDelete(headers);
    }
    if (header(headers, IF_MATCH) != null) {
      throw ControlPlaneException.validation(
          IF_NONE_MATCH, "send either If-Match or If-None-Match, not both");
    }
    if (!ifNoneMatch.trim().equals("*")) {
      throw ControlPlaneException.validation(
          IF_NONE_MATCH, "only * (create, do not replace) is supported on PUT");
    }
    return VersionMatch.of(VersionMatch.Kind.ABSENT, Set.of());
  }

  /** The precondition of a DELETE (and of a PUT without If-None-Match): If-Match. */
  static VersionMatch forDelete(HttpHeaders headers) {
    return ifMatch(header(headers, IF_MATCH));
  }

  /** An If-Match value (null when absent). */
  static VersionMatch ifMatch(String ifMatch) {
    if (ifMatch == null) {
      return VersionMatch.NONE;
    }
    if (ifMatch.trim().equals("*")) {
      return VersionMatch.of(VersionMatch.Kind.EXISTS, Set.of());
    }
    return VersionMatch.oneOf(versions(ifMatch));
  }

  /** The strong tags of an If-Match list that can be versions; others never match. */
  private static Set<Long> versions(String list) {
    Set<Long> versions = new HashSet<>();
    Matcher m = TAG.matcher(list);
    int end = 0;
    while (end < list.length() && m.find(end) && m.start() == end) {
      if (m.group(1) == null && m.group(2).matches("[0-9]{1,19}")) {
        parse(m.group(2), versions);
      }
      end = m.end();
    }
    if (end < list.length() || list.isBlank()) {
      throw ControlPlaneException.validation(
          IF_MATCH,
          "must be * or a list of quoted entity tags as the ETag header sends them, e.g. \"42\"");
    }
    return versions;
  }

  private static void parse(String digits, Set<Long> versions) {
    try {
      versions.add(Long.parseLong(digits));
    } catch (NumberFormatException tooLarge) {
      // a tag that is no version can never match
    }
  }

  private static String header(HttpHeaders headers, String name) {
    List<String> values = headers.getRequestHeader(name);
    return values == null || values.isEmpty() ? null : String.join(",", values);
  }
}
