package dev.controlplane.auth;

import dev.controlplane.audit.Actor;
import dev.controlplane.audit.CurrentActor;
import dev.controlplane.cache.TenantCache;
import dev.controlplane.cache.TenantChanges;
import dev.controlplane.config.AuthConfig;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.rbac.Action;
import dev.controlplane.rbac.Grants;
import dev.controlplane.rbac.Permission;
import dev.controlplane.rbac.RbacObject;
import dev.controlplane.rbac.TenantEnforcers;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The token exchange: a valid upstream token for a tenant becomes a service token carrying the
 * principal's RBAC permissions, narrowed by the request's hints. Permissions come only from RBAC.
 *
 * <p>Every refusal of the upstream token is the same 401 with the same detail ({@link #REFUSED}),
 * whatever the reason — an unknown tenant, an untrusted issuer, a bad signature, an unreachable key
 * server — so the answer tells a caller nothing about the tenant; the reason goes to the log (the
 * audit trail) with the tenant and, once known, the issuer.
 */
@ApplicationScoped
public class TokenExchange {

  /** The one detail of every refused upstream token. */
  public static final String REFUSED = "the token is not valid for this tenant";

  private static final Logger LOG = Logger.getLogger(TokenExchange.class.getName());
  private static final int MAX_HINTS = 100;

  @Inject AuthConfig config;
  @Inject IssuerStore issuers;
  @Inject TenantEnforcers enforcers;
  @Inject ServiceTokens tokens;
  @Inject ExchangeMetrics metrics;
  @Inject TenantChanges changes;
  @Inject ExchangeAuditing audit;

  /** Finishes exchanges whose keys had to be fetched: RBAC and signing need a managed thread. */
  @Resource ManagedExecutorService executor;

  private UpstreamValidator validator;
  private KeyFetcher fetcher;

  /** The tenants' trusted issuers, read on every exchange: in memory, dropped when they change. */
  private TenantCache<List<IssuerRecord>> trusted;

  @PostConstruct
  void init() {
    // Reached before the upstream token is verified, for any tenant named in the URL.
    trusted = changes.cache(issuers::list, found -> !found.isEmpty());
    fetcher =
        new KeyFetcher(
            config.allowHttp(), new AddressPolicy(config.allowedNetworks()), config.issuerCaFile());
    fetcher.onOutcome(metrics::keyFetch);
    UpstreamKeySets keySets =
        new UpstreamKeySets(
            fetcher, config.jwksCacheTtl(), config.jwksRefreshInterval(), Clock.systemUTC());
    validator =
        new UpstreamValidator(
            config.allowedAlgorithms(),
            keySets,
            this::trustedIssuer,
            config.clockSkew(),
            Clock.systemUTC(),
            config.requireLowS());
  }

  @PreDestroy
  void stop() {
    fetcher.close();
  }

  /**
   * Exchanges {@code upstreamToken}. Hints are checked at once (400); the rest completes the stage,
   * on this thread when the issuer's keys are cached, else when they have been fetched.
   */
  public CompletionStage<ServiceTokens.Issued> exchange(
      String tenant, String upstreamToken, List<String> requested, List<String> resources) {
    Actor caller = CurrentActor.get();
    Set<Action> actions;
    List<RbacObject> objects;
    try {
      actions = actions(requested);
      objects = objects(resources);
    } catch (ControlPlaneException e) {
      audit.refused(tenant, caller, e.code().problemCode(), e.getMessage());
      throw e;
    }
    CompletableFuture<UpstreamIdentity> identity;
    try {
      identity = validator.validate(tenant, upstreamToken);
    } catch (RuntimeException e) {
      throw refused(tenant, caller, e);
    }
    BiFunction<UpstreamIdentity, Throwable, ServiceTokens.Issued> finish =
        (who, failure) -> {
          if (failure != null) {
            throw refused(tenant, caller, failure);
          }
          return issue(tenant, who, caller, new Hints(actions, objects));
        };
    return identity.isDone() ? identity.handle(finish) : identity.handleAsync(finish, executor);
  }

  /**
   * A request refused before its token is even looked at (no bearer token, a body that is not
   * JSON): recorded like every refused exchange, then thrown by the caller.
   */
  public ControlPlaneException refusedRequest(String tenant, ControlPlaneException why) {
    audit.refused(tenant, CurrentActor.get(), why.code().problemCode(), why.getMessage());
    return why;
  }

  private Optional<IssuerRecord> trustedIssuer(String tenant, String issuer) {
    return trusted.get(tenant).stream().filter(i -> i.issuer().equals(issuer)).findFirst();
  }

  public long keyFetches() {
    return fetcher.fetchCount();
  }

  /** The request's narrowing hints, checked. */
  private record Hints(Set<Action> actions, List<RbacObject> objects) {}

  private ServiceTokens.Issued issue(
      String tenant, UpstreamIdentity who, Actor caller, Hints hints) {
    Set<String> groups = groupsOf(tenant, who);
    TenantEnforcers.Grant grant = enforcers.grant(tenant, who.principal(), groups);
    List<Permission> granted = grant.perms();
    Set<Action> actions = hints.actions();
    List<Permission> perms = Grants.filter(granted, actions, hints.objects());
    if (perms.isEmpty()) {
      audit.forbidden(tenant, caller, who, grant);
      metrics.forbidden();
      LOG.info(
          "token exchange forbidden for tenant "
              + tenant
              + ": principal "
              + who.principal()
              + " of issuer "
              + who.issuer()
              + " with groups "
              + groups
              + " holds "
              + granted.size()
              + " permission(s), none left by the hints");
      throw new ControlPlaneException(ErrorCode.FORBIDDEN, Grants.nothingLeft(granted, actions));
    }
    ServiceTokens.Issued issued = tokens.issue(tenant, who.principal(), perms);
    audit.issued(tenant, caller, who, new TenantEnforcers.Grant(perms, grant.revision()), issued);
    metrics.issued();
    LOG.fine(
        () ->
            "token issued for tenant "
                + tenant
                + " to principal "
                + who.principal()
                + " of issuer "
                + who.issuer()
                + " with groups "
                + groups
                + ": "
                + perms);
    return issued;
  }

  /**
   * The identity's groups that its issuer may assert: a group subject belongs to the group-mapping
   * issuer with the longest groups prefix it starts with, so an issuer with prefix {@code ""}
   * cannot assert {@code group:partner/admins} once another issuer maps its groups to {@code
   * partner/}. Rows that bypassed IssuerAdmin's checks and share a prefix assert nothing.
   */
  private Set<String> groupsOf(String tenant, UpstreamIdentity who) {
    if (who.groups().isEmpty()) {
      return Set.of();
    }
    List<IssuerRecord> all = trusted.get(tenant);
    Set<String> kept = new LinkedHashSet<>();
    for (String group : who.groups()) {
      if (IssuerAdmin.assertingIssuer(group, all).filter(who.issuer()::equals).isPresent()) {
        kept.add(group);
      }
    }
    if (kept.size() < who.groups().size()) {
      LOG.info(
          "ignoring "
              + (who.groups().size() - kept.size())
              + " group(s) of issuer "
              + who.issuer()
              + " in tenant "
              + tenant
              + ": their names belong to another issuer's groups_prefix, or two issuers share"
              + " this issuer's prefix");
    }
    return kept;
  }

  /** The uniform refusal; the reason is logged. Anything that is not a refusal passes through. */
  private RuntimeException refused(String tenant, Actor caller, Throwable failure) {
    Throwable cause =
        failure instanceof CompletionException && failure.getCause() != null
            ? failure.getCause()
            : failure;
    if (!(cause instanceof TokenRejected)) {
      return cause instanceof RuntimeException r ? r : new CompletionException(cause);
    }
    LOG.log(Level.INFO, "token exchange refused for tenant " + tenant + ": " + cause.getMessage());
    audit.refused(tenant, caller, ErrorCode.INVALID_TOKEN.problemCode(), cause.getMessage());
    metrics.invalid();
    return new TokenRejected(REFUSED);
  }

  private static Set<Action> actions(List<String> requested) {
    Set<Action> out = new LinkedHashSet<>();
    for (String name : limited("requested", requested)) {
      out.add(
          Action.parse(name)
              .orElseThrow(
                  () ->
                      ControlPlaneException.validation(
                          "requested", "unknown action '" + name + "'")));
    }
    return out;
  }

  private static List<RbacObject> objects(List<String> resources) {
    List<RbacObject> out = new ArrayList<>();
    for (String text : limited("resources", resources)) {
      out.add(
          RbacObject.parse(text)
              .orElseThrow(
                  () ->
                      ControlPlaneException.validation(
                          "resources", "'" + text + "' is not an RBAC object")));
    }
    return out;
  }

  private static List<String> limited(String field, List<String> values) {
    if (values == null) {
      return List.of();
    }
    if (values.size() > MAX_HINTS) {
      throw ControlPlaneException.validation(field, "at most " + MAX_HINTS + " entries");
    }
    return values;
  }
}
