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
 * attack, a rise of {@code forbidden} missing RBAC grants.
 */
@ApplicationScoped
public class ExchangeMetrics {

  private static final Metadata EXCHANGES =
      Metadata.builder()
          .withName("controlplane.token.exchanges")
          .withDescription("Token exchanges by outcome: issued, invalid_token, forbidden")
          .build();

  @Inject MetricRegistry registry;

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
