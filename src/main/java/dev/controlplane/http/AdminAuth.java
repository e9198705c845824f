package dev.controlplane.http;

import dev.controlplane.audit.Actor;
import dev.controlplane.audit.CurrentActor;
import dev.controlplane.auth.ServiceTokens;
import dev.controlplane.auth.TokenRejected;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.rbac.Action;
import dev.controlplane.rbac.Permission;
import dev.controlplane.rbac.RbacObject;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.HttpHeaders;
import java.util.Arrays;
import java.util.List;

/**
 * Authenticates admin requests: our own service tokens (verified like a broker would, and the
 * token's {@code tid} must be the path's tenant), or the platform operator's break-glass token
 * ({@code SERVICE_CONTROLPLANE_OPERATOR_TOKEN}, constant-time), which holds every permission.
 * Missing or invalid credentials are 401; valid ones without the permission 403. Metadata reads
 * also accept the broker credential.
 */
@ApplicationScoped
public class AdminAuth {

  @Inject dev.controlplane.config.TlsConfig tlsConfig;
  @Inject dev.controlplane.config.SharedCredentials credentials;
  @Inject ServiceTokens tokens;

  /** The permissions the caller holds in {@code tenant}. */
  public List<Permission> authenticate(HttpHeaders headers, String tenant) {
    String authorization = bearer(headers);
    PathNames.check("tenant", tenant);
    if (isOperator(authorization)) {
      CurrentActor.identify(Actor.OPERATOR, Actor.OPERATOR);
      return operatorPermissions(tenant);
    }
    ServiceTokens.Verified verified = tokens.verify(authorization.substring(7).trim(), tenant);
    CurrentActor.identify(verified.principal(), Actor.USER);
    return verified.perms();
  }

  /**
   * Whether the request carries the platform operator's credential: only it may write what the
   * platform owns in a tenant (its quotas), whatever a tenant's own tokens hold.
   */
  public boolean isPlatformOperator(HttpHeaders headers) {
    String authorization = headers.getHeaderString(HttpHeaders.AUTHORIZATION);
    return authorization != null && isOperator(authorization);
  }

  /**
   * Reads of one tenant's metadata: a service token of that tenant (any permission: a token is only
   * issued to a principal holding one there), the broker credential (brokers see all metadata
   * through the snapshot anyway), or the operator token.
   */
  public void requireTenantReader(HttpHeaders headers, String tenant) {
    String authorization = bearer(headers);
    if (!isPlatformCredential(authorization)) {
      PathNames.check("tenant", tenant);
      tokens.verify(authorization.substring(7).trim(), tenant);
    }
  }

  /**
   * Reads of brokers: a service token of any tenant (clients find a shard leader's address here),
   * the broker credential, or the operator token.
   */
  public void requireBrokerReader(HttpHeaders headers) {
    String authorization = bearer(headers);
    if (!isPlatformCredential(authorization)) {
      tokens.verifyForItsTenant(authorization.substring(7).trim());
    }
  }

  /** Reads across every tenant: the broker credential or the operator token only. */
  public void requirePlatformReader(HttpHeaders headers) {
    requirePlatformReader(
        headers,
        "listing every tenant",
        "; a tenant's service token reads its own tenant at /v1/tenants/{tenant}");
  }

  /**
   * Reads of what spans tenants ({@code what}, such as bridges): the broker credential or the
   * operator token only; {@code hint} ends the refusal of a tenant's token.
   */
  public void requirePlatformReader(HttpHeaders headers, String what, String hint) {
    String authorization = bearer(headers);
    if (!isPlatformCredential(authorization)) {
      tokens.verifyForItsTenant(authorization.substring(7).trim());
      throw new ControlPlaneException(
          ErrorCode.FORBIDDEN, what + " needs the operator or broker credential" + hint);
    }
  }

  /** The platform operator's credential only (401 without valid credentials, else 403). */
  public void requireOperator(HttpHeaders headers, String what) {
    String authorization = bearer(headers);
    if (isOperator(authorization)) {
      CurrentActor.identify(Actor.OPERATOR, Actor.OPERATOR);
      return;
    }
    if (!isPlatformCredential(authorization)) {
      tokens.verifyForItsTenant(authorization.substring(7).trim());
    }
    throw new ControlPlaneException(
        ErrorCode.FORBIDDEN, what + " needs the platform operator credential");
  }

  private static String bearer(HttpHeaders headers) {
    String authorization = headers.getHeaderString(HttpHeaders.AUTHORIZATION);
    if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      throw new TokenRejected("a bearer token is required");
    }
    return authorization;
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
    return credentials.operator().accepts(authorization);
  }

  /** The operator token or the broker credential: both read every tenant's metadata. */
  private boolean isPlatformCredential(String authorization) {
    return isOperator(authorization)
        || (tlsConfig.sharedBrokerTokenAccepted() && credentials.broker().accepts(authorization));
  }

  private static List<Permission> operatorPermissions(String tenant) {
    RbacObject scope = RbacObject.tenant(tenant);
    return Arrays.stream(Action.values())
        .filter(a -> a.appliesTo(RbacObject.Kind.TENANT))
        .map(a -> new Permission(a, scope))
        .toList();
  }
}
