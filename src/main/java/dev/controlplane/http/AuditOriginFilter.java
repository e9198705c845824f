package dev.controlplane.http;

import dev.controlplane.audit.Actor;
import dev.controlplane.audit.CurrentActor;
import jakarta.annotation.Priority;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.ext.Provider;

/**
 * Binds the request's origin to its thread for the audit log ({@link CurrentActor}): the
 * connection's remote address and the {@code User-Agent}. {@code X-Forwarded-For} is not trusted:
 * any client can send it, so behind a proxy the proxy's address is recorded (Kubernetes' audit
 * records both; a proxy-aware setting can come when one is asked for). {@link AdminAuth} names the
 * principal once the credentials verify.
 */
@Provider
@PreMatching
@Priority(2)
public class AuditOriginFilter implements ContainerRequestFilter, ContainerResponseFilter {

  @Context HttpServletRequest servlet;

  @Override
  public void filter(ContainerRequestContext request) {
    String address = servlet == null ? null : servlet.getRemoteAddr();
    CurrentActor.bind(Actor.anonymous(address, request.getHeaderString(HttpHeaders.USER_AGENT)));
  }

  @Override
  public void filter(ContainerRequestContext request, ContainerResponseContext response) {
    CurrentActor.clear();
  }
}
