package dev.controlplane.cli.resource;

import com.fasterxml.jackson.databind.JsonNode;
import dev.controlplane.cli.client.ApiClient;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a whole list by following {@code next_page_token} (docs/api.md, Lists and paging), so no
 * command leaves paging to the user.
 */
public final class Pager {

  /** Items per request: large pages, few round trips. */
  public static final int PAGE_SIZE = 500;

  private Pager() {}

  public static List<JsonNode> all(ApiClient api, String path, String tenant) {
    return all(api, path, tenant, PAGE_SIZE);
  }

  /** Every item, {@code pageSize} (1 to 1000) per request. */
  public static List<JsonNode> all(ApiClient api, String path, String tenant, int pageSize) {
    List<JsonNode> items = new ArrayList<>();
    String token = "";
    do {
      JsonNode page =
          api.send(
                  ApiClient.Call.of("GET", path)
                      .query("limit", Integer.toString(pageSize))
                      .query("page_token", token.isEmpty() ? null : token)
                      .tenant(tenant))
              .body();
      page.path("items").forEach(items::add);
      token = page.path("next_page_token").asText("");
    } while (!token.isEmpty());
    return items;
  }
}
