package dev.controlplane.auth;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * Token exchanges by outcome: a rise of {@code invalid_token} is a misconfigured issuer or an
 * attack, a rise of {@code forbidden} missing RBAC grants. And issuers' key fetches by outcome,
 * which tell a key server that is down ({@code timeout}, {@code unreachable}) from one the node
 * does not trust ({@code tls}) or may not reach ({@code refused}).
 */
@ApplicationScoped
public class ExchangeMetrics {

  private static final Metadata EXCHANGES =
      Metadata.builder()
          .withName("controlplane.token.exchanges")
          .withDescription("Token exchanges by outcome: issued, invalid_token, forbidden")
          .build();

  private static final Metadata KEY_FETCHES =
      Metadata.builder()
          .withName("controlplane.issuer.key.fetches")
          .withDescription(
              "Fetches of issuers' discovery documents and key sets by outcome: fetched, timeout,"
                  + " unreachable, tls, refused, invalid, busy, error")
          .build();

  @Inject MetricRegistry registry;

  private final java.util.Map<KeyFetcher.KeyFetchFailed.Outcome, Counter> keyFetches =
      new java.util.EnumMap<>(KeyFetcher.KeyFetchFailed.Outcome.class);

  private Counter issued;
  private Counter invalid;
  private Counter forbidden;

  /** Instantiates the bean at start, so the counters are exported at 0 before any exchange. */
  void atStart(@Observes @Initialized(ApplicationScoped.class) Object event) {}

  @PostConstruct
  void init() {
    issued = registry.counter(EXCHANGES, new Tag("outcome", "issued"));
    invalid = registry.counter(EXCHANGES, new Tag("outcome", "invalid_token"));
    forbidden = registry.counter(EXCHANGES, new Tag("outcome", "forbidden"));
    for (KeyFetcher.KeyFetchFailed.Outcome outcome : KeyFetcher.KeyFetchFailed.Outcome.values()) {
      keyFetches.put(outcome, registry.counter(KEY_FETCHES, new Tag("outcome", outcome.label())));
    }
  }

  void keyFetch(KeyFetcher.KeyFetchFailed.Outcome outcome) {
    keyFetches.get(outcome).inc();
  }

  void issued() {
    issued.inc();
  }

  void invalid() {
    invalid.inc();
  }

  void forbidden() {
    forbidden.inc();
  }
}
