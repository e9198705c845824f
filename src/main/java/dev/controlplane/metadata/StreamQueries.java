package dev.controlplane.metadata;

import dev.controlplane.broker.BrokerHealthQueries;
import dev.controlplane.broker.BrokerHealthQueries.StreamMetrics;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.metadata.model.Stream;
import dev.controlplane.metadata.model.Text;
import dev.controlplane.metadata.store.ResourceStore;
import dev.controlplane.tx.Tx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * ListStreams: active streams of a namespace whose name contains {@code filter}, ordered by name,
 * paged by keyset. The token carries the last name and the filter, so a page is never skipped or
 * repeated while others write, and a token cannot be replayed with another filter.
 */
@ApplicationScoped
public class StreamQueries {

  public static final int DEFAULT_PAGE = 100;
  public static final int MAX_PAGE = 1000;

  @Inject ResourceStore store;
  @Inject BrokerHealthQueries health;

  /** A stream with what brokers report about it. */
  public record StreamInfo(Stream stream, StreamMetrics metrics) {}

  public record Page(List<StreamInfo> streams, String nextPageToken) {}

  @Tx
  public Page listStreams(
      String tenant, String namespace, String filter, int pageSize, String pageToken) {
    String safeFilter = filter == null ? "" : filter;
    if (!Text.isLine(safeFilter)) {
      throw ControlPlaneException.validation("filter", "must be " + Text.LINE_RULE);
    }
    int size = pageSize <= 0 ? DEFAULT_PAGE : Math.min(pageSize, MAX_PAGE);
    String after = decode(pageToken, safeFilter);
    List<Stream> page =
        Parents.ofNamespace(
            store,
            tenant,
            namespace,
            store.streamsContaining(tenant, namespace, safeFilter, after, size));
    var metrics = health.metrics(tenant, namespace, page.stream().map(Stream::name).toList());
    List<StreamInfo> infos =
        page.stream()
            .map(s -> new StreamInfo(s, metrics.getOrDefault(s.name(), StreamMetrics.NONE)))
            .toList();
    String next = page.size() < size ? "" : encode(page.get(page.size() - 1).name(), safeFilter);
    return new Page(infos, next);
  }

  private static String encode(String lastName, String filter) {
    String raw = lastName + "\n" + filter;
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(raw.getBytes(StandardCharsets.UTF_8));
  }

  private static String decode(String token, String filter) {
    if (token == null || token.isEmpty()) {
      return "";
    }
    String raw;
    try {
      raw = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw ControlPlaneException.validation("page_token", "is not a token this API returned");
    }
    int cut = raw.indexOf('\n');
    if (cut < 0 || !Text.isLine(raw.substring(0, cut))) {
      throw ControlPlaneException.validation("page_token", "is not a token this API returned");
    }
    if (!raw.substring(cut + 1).equals(filter)) {
      throw ControlPlaneException.validation(
          "page_token", "does not belong to this filter; start again without it");
    }
    return raw.substring(0, cut);
  }
}
