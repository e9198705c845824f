package dev.controlplane.grpc;

import dev.controlplane.audit.Actor;
import dev.controlplane.audit.CurrentActor;
import dev.controlplane.auth.ServiceTokens;
import dev.controlplane.auth.TokenRejected;
import dev.controlplane.config.SharedSecret;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.rbac.Action;
import dev.controlplane.rbac.Permission;
import dev.controlplane.rbac.RbacObject;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;

/**
 * Authorization of AdminService calls. The interceptor only requires a bearer token and hands it to
 * the call; each RPC then names the tenant and object it touches, and {@link #require} checks a
 * service token of that tenant for the permission (inheritance applies, as over HTTP). The platform
 * operator's credential holds every permission, and is the only one for cluster-wide operations.
 */
final class AdminAuthorizer implements ServerInterceptor {

  private static final Context.Key<String> BEARER = Context.key("controlplane-admin-bearer");

  private final ServiceTokens tokens;
  private final SharedSecret operator;
  private final String service;

  AdminAuthorizer(ServiceTokens tokens, SharedSecret operator, String service) {
    this.tokens = tokens;
    this.operator = operator;
    this.service = service;
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    if (!service.equals(call.getMethodDescriptor().getServiceName())) {
      return next.startCall(call, headers);
    }
    String authorization = headers.get(BrokerCredentialInterceptor.AUTHORIZATION);
    if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      call.close(
          Status.UNAUTHENTICATED.withDescription(
              "admin RPCs need authorization: Bearer <service token>"),
          new Metadata());
      return new ServerCall.Listener<>() {};
    }
    Context context = Context.current().withValue(BEARER, authorization.substring(7).trim());
    return Contexts.interceptCall(context, call, headers, next);
  }

  /** Requires {@code action} on {@code object} in {@code tenant}, from the calling RPC's thread. */
  void require(String tenant, Action action, RbacObject object) {
    String bearer = BEARER.get();
    if (!operatorCall(bearer)) {
      permit(tokens.verify(bearer, tenant), action, object);
    }
  }

  /**
   * {@link #require}, for a thread that must not wait on the database (a transport's event loop):
   * false, with nothing checked, when the answer would need a read, that is when the service token
   * is new to this node or its tenant's keys are not in memory.
   */
  boolean requireWithoutIo(String tenant, Action action, RbacObject object) {
    String bearer = BEARER.get();
    if (operatorCall(bearer)) {
      return true;
    }
    var remembered = tokens.remembered(bearer, tenant);
    remembered.ifPresent(verified -> permit(verified, action, object));
    return remembered.isPresent();
  }

  /** True, with the actor named, for the operator's credential; refuses a call without a bearer. */
  private boolean operatorCall(String bearer) {
    if (isOperator(bearer)) {
      CurrentActor.identify(Actor.OPERATOR, Actor.OPERATOR);
      return true;
    }
    if (bearer == null) {
      throw new TokenRejected("a bearer token is required");
    }
    return false;
  }

  private static void permit(ServiceTokens.Verified verified, Action action, RbacObject object) {
    CurrentActor.identify(verified.principal(), Actor.USER);
    if (!Permission.anyCovers(verified.perms(), new Permission(action, object))) {
      throw new ControlPlaneException(
          ErrorCode.FORBIDDEN, "this needs " + action + " on " + object);
    }
  }

  /**
   * Operations on the whole cluster (brokers, cluster-wide rebalancing) belong to the platform
   * operator. Any other bearer is verified first, as over HTTP: one that is no valid credential is
   * UNAUTHENTICATED (fix the token), a valid service token PERMISSION_DENIED (ask the operator).
   */
  void requireOperator() {
    String bearer = BEARER.get();
    if (!isOperator(bearer)) {
      tokens.verifyForItsTenant(bearer);
      throw new ControlPlaneException(
          ErrorCode.FORBIDDEN, "this needs the platform operator credential");
    }
    CurrentActor.identify(Actor.OPERATOR, Actor.OPERATOR);
  }

  private boolean isOperator(String bearer) {
    return bearer != null && operator.accepts("Bearer " + bearer);
  }
}
