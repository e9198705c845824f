package dev.controlplane.http;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.metadata.model.Text;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.function.Function;

/**
 * Keyset paging: the opaque token is the last key returned, so pages stay stable while others write
 * (nothing skipped, nothing repeated among resources that exist throughout).
 */
final class Paging {

  static final int DEFAULT_LIMIT = 100;
  static final int MAX_LIMIT = 1000;

  private Paging() {}

  /** The page size; a query parameter, so it arrives as text and a bad one is a 400, not a 404. */
  static int limit(String requested) {
    if (requested == null || requested.isEmpty()) {
      return DEFAULT_LIMIT;
    }
    int value;
    try {
      value = Integer.parseInt(requested);
    } catch (NumberFormatException e) {
      value = -1;
    }
    if (value < 1 || value > MAX_LIMIT) {
      throw ControlPlaneException.validation(
          "limit", "must be an integer between 1 and " + MAX_LIMIT);
    }
    return value;
  }

  static String after(String pageToken) {
    if (pageToken == null || pageToken.isEmpty()) {
      return "";
    }
    String after;
    try {
      after = new String(Base64.getUrlDecoder().decode(pageToken), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      after = null;
    }
    // Every key a page ends on is a line of text; anything else was made up, and a NUL would only
    // be refused by the database.
    if (!Text.isLine(after)) {
      throw ControlPlaneException.validation("page_token", "is not a token this API returned");
    }
    return after;
  }

  /** The token for the page after {@code page}, or null when it was the last one. */
  static <T> String next(List<T> page, int limit, Function<T, String> key) {
    if (page.size() < limit) {
      return null;
    }
    String last = key.apply(page.get(page.size() - 1));
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(last.getBytes(StandardCharsets.UTF_8));
  }
}
