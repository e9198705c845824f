package dev.controlplane.http;

import dev.controlplane.config.SharedCredentials;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.ext.Provider;

/**
 * Counts each request that presents a fallback token of a shared credential, once, however many
 * checks its resource makes ({@code controlplane_credential_fallback_uses_total}).
 */
@Provider
@PreMatching
public class FallbackCredentialFilter implements ContainerRequestFilter {

  @Inject SharedCredentials credentials;

  @Override
  public void filter(ContainerRequestContext request) {
    credentials.countFallbackUse(request.getHeaderString(HttpHeaders.AUTHORIZATION));
  }
}
