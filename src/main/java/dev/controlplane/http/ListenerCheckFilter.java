package dev.controlplane.http;

import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.Provider;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Answers this node's own listener check (204 with the token) before any other filter; every other
 * request passes untouched. Only a caller that knows the token gets the answer.
 */
@Provider
@PreMatching
@Priority(1)
public class ListenerCheckFilter implements ContainerRequestFilter {

  @Inject ListenerIdentity identity;

  @Override
  public void filter(ContainerRequestContext request) {
    String sent = request.getHeaderString(ListenerIdentity.HEADER);
    if (sent != null
        && MessageDigest.isEqual(
            sent.getBytes(StandardCharsets.UTF_8),
            identity.token().getBytes(StandardCharsets.UTF_8))) {
      request.abortWith(
          Response.noContent().header(ListenerIdentity.HEADER, identity.token()).build());
    }
  }
}
