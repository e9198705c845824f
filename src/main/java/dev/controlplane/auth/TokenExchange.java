package dev.controlplane.auth;

import dev.controlplane.config.AuthConfig;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.metadata.model.Names;
import dev.controlplane.rbac.Action;
import dev.controlplane.rbac.Grants;
import dev.controlplane.rbac.Permission;
import dev.controlplane.rbac.RbacObject;
import dev.controlplane.rbac.TenantEnforcers;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.logging.Logger;

/**
 * The token exchange: a valid upstream token for a tenant becomes a service token carrying the
 * principal's RBAC permissions, narrowed by the request's hints. Permissions come only from RBAC.
 */
@ApplicationScoped
public class TokenExchange {

  private static final Logger LOG = Logger.getLogger(TokenExchange.class.getName());
  private static final int MAX_HINTS = 100;

  @Inject AuthConfig config;
  @Inject IssuerStore issuers;
  @Inject TenantEnforcers enforcers;
  @Inject ServiceTokens tokens;
  @Inject ExchangeMetrics metrics;

  private UpstreamValidator validator;
  private KeyFetcher fetcher;

  @PostConstruct
  void init() {
    fetcher = new KeyFetcher(config.allowHttp());
    UpstreamKeySets keySets =
        new UpstreamKeySets(
            fetcher, config.jwksCacheTtl(), config.jwksRefreshInterval(), Clock.systemUTC());
    validator =
        new UpstreamValidator(
            config.allowedAlgorithms(),
            keySets,
            issuers::find,
            config.clockSkew(),
            Clock.systemUTC());
  }

  public ServiceTokens.Issued exchange(
      String tenant, String upstreamToken, List<String> requested, List<String> resources) {
    UpstreamIdentity identity;
    try {
      if (!Names.isValid(tenant)) {
        throw new TokenRejected("the token's issuer is not trusted by this tenant");
      }
      identity = validator.validate(tenant, upstreamToken);
    } catch (TokenRejected e) {
      // An audit line per refusal, with the reason; never the token itself.
      LOG.info("token exchange refused for tenant " + tenant + ": " + e.getMessage());
      metrics.invalid();
      throw e;
    }
    Set<Action> actions = actions(requested);
    List<RbacObject> objects = objects(resources);
    List<Permission> granted = enforcers.granted(tenant, identity.principal(), identity.groups());
    List<Permission> perms = Grants.filter(granted, actions, objects);
    if (perms.isEmpty()) {
      metrics.forbidden();
      throw new ControlPlaneException(
          ErrorCode.FORBIDDEN, "no permission remains for this principal and request");
    }
    ServiceTokens.Issued issued = tokens.issue(tenant, identity.principal(), perms);
    metrics.issued();
    return issued;
  }

  public long keyFetches() {
    return fetcher.fetchCount();
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
