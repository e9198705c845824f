package dev.controlplane.config;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * The two shared credentials, the broker token and the operator's break-glass token, each with the
 * fallback tokens accepted while it is replaced (docs/operations.md, "Replacing the shared
 * credentials"). Uses of a fallback are counted per credential in {@code
 * controlplane_credential_fallback_uses_total}.
 */
@ApplicationScoped
public class SharedCredentials {

  private static final Metadata FALLBACK_USES =
      Metadata.builder()
          .withName("controlplane.credential.fallback.uses")
          .withDescription(
              "Requests authenticated with a fallback token of a shared credential (broker,"
                  + " operator): clients not yet moved to the current token")
          .build();

  @Inject ControlPlaneConfig config;
  @Inject MetricRegistry registry;

  @Inject
  @ConfigProperty(name = "service.controlplane.broker.token.fallbacks")
  Optional<String> brokerTokenFallbacks;

  @Inject
  @ConfigProperty(name = "service.controlplane.operator.token.fallbacks")
  Optional<String> operatorTokenFallbacks;

  private SharedSecret broker;
  private SharedSecret operator;
  private Counter brokerFallbackUses;
  private Counter operatorFallbackUses;

  /** Both credentials and both counters, so each counter is exported at 0 before its first use. */
  @PostConstruct
  void init() {
    broker = new SharedSecret(config.brokerToken(), tokens(brokerTokenFallbacks));
    operator = new SharedSecret(config.operatorToken(), tokens(operatorTokenFallbacks));
    brokerFallbackUses = registry.counter(FALLBACK_USES, new Tag("credential", "broker"));
    operatorFallbackUses = registry.counter(FALLBACK_USES, new Tag("credential", "operator"));
  }

  /** The broker credential ({@code SERVICE_CONTROLPLANE_BROKER_TOKEN} and its fallbacks). */
  public SharedSecret broker() {
    return broker;
  }

  /** The operator credential ({@code SERVICE_CONTROLPLANE_OPERATOR_TOKEN} and its fallbacks). */
  public SharedSecret operator() {
    return operator;
  }

  /**
   * Counts a request or call presenting {@code authorization} if that is a fallback token. Called
   * once per request at each edge (the HTTP filter, the gRPC interceptors), however many checks the
   * request then makes, so each use counts once.
   */
  public void countFallbackUse(String authorization) {
    if (authorization == null) {
      return;
    }
    if (broker.match(authorization) == SharedSecret.Match.FALLBACK) {
      brokerFallbackUses.inc();
    }
    if (operator.match(authorization) == SharedSecret.Match.FALLBACK) {
      operatorFallbackUses.inc();
    }
  }

  /** Fallbacks of a credential that is not set would accept old tokens and no current one. */
  public void validate(SettingProblems problems) {
    problems.check(
        () -> requireCurrent("BROKER_TOKEN", config.brokerToken(), brokerTokenFallbacks));
    problems.check(
        () -> requireCurrent("OPERATOR_TOKEN", config.operatorToken(), operatorTokenFallbacks));
  }

  private static void requireCurrent(
      String name, Optional<String> current, Optional<String> fallbacks) {
    if (current.isEmpty() && !tokens(fallbacks).isEmpty()) {
      throw new InvalidSettingException(
          "SERVICE_CONTROLPLANE_"
              + name
              + "_FALLBACKS is set but SERVICE_CONTROLPLANE_"
              + name
              + " is not: fallbacks are the old tokens still accepted while clients move to the"
              + " current one");
    }
  }

  /** The comma-separated tokens of a fallback setting, blank entries left out. */
  static List<String> tokens(Optional<String> setting) {
    return Arrays.stream(setting.orElse("").split(","))
        .map(String::trim)
        .filter(t -> !t.isEmpty())
        .toList();
  }
}
