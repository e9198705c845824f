package dev.controlplane.http;

import dev.controlplane.auth.ServiceTokens;
import dev.controlplane.auth.TokenRejected;
import dev.controlplane.config.ControlPlaneConfig;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.rbac.Action;
import dev.controlplane.rbac.Permission;
import dev.controlplane.rbac.RbacObject;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.List;

/**
 * Authenticates admin requests: our own service tokens (verified like a broker would, and the
 * token's {@code tid} must be the path's tenant), or the platform operator's break-glass token
 * ({@code SERVICE_CONTROLPLANE_OPERATOR_TOKEN}, constant-time), which holds every permission.
 * Missing or invalid credentials are 401; valid ones without the permission 403.
 */
@ApplicationScoped
public class AdminAuth {

  @Inject ControlPlaneConfig config;
  @Inject ServiceTokens tokens;

  /** The permissions the caller holds in {@code tenant}. */
  public List<Permission> authenticate(HttpHeaders headers, String tenant) {
    String authorization = headers.getHeaderString(HttpHeaders.AUTHORIZATION);
    if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      throw new TokenRejected("a bearer token is required");
    }
    if (isOperator(authorization)) {
      return operatorPermissions(tenant);
    }
    PathNames.check("tenant", tenant);
    return tokens.verify(authorization.substring(7).trim(), tenant).perms();
  }

  /** Authenticates and requires {@code action} on {@code object} (inheritance applies). */
  public List<Permission> require(
      HttpHeaders headers, String tenant, Action action, RbacObject object) {
    List<Permission> held = authenticate(headers, tenant);
    if (!Permission.anyCovers(held, new Permission(action, object))) {
      throw new ControlPlaneException(
          ErrorCode.FORBIDDEN, "this needs " + action + " on " + object);
    }
    return held;
  }

  private boolean isOperator(String authorization) {
    return config
        .operatorToken()
        .map(
            t ->
                MessageDigest.isEqual(
                    ("Bearer " + t).getBytes(StandardCharsets.UTF_8),
                    authorization.getBytes(StandardCharsets.UTF_8)))
        .orElse(false);
  }

  private static List<Permission> operatorPermissions(String tenant) {
    RbacObject scope = RbacObject.tenant(tenant);
    return Arrays.stream(Action.values())
        .filter(a -> a.appliesTo(RbacObject.Kind.TENANT))
        .map(a -> new Permission(a, scope))
        .toList();
  }
}
