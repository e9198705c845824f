package dev.controlplane.http;

import dev.controlplane.cluster.Leadership;
import dev.controlplane.error.ControlPlaneException;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.ext.Provider;

/**
 * A node that knows no leader (an election is running, or it is cut off from a quorum) answers
 * every admin request, reads included, with 503: what it would serve may already be outdated and
 * nothing it accepts could be committed. Watches and snapshots over gRPC stay available, and so
 * does the node's own description ({@code GET /v1/cluster/node}).
 */
@Provider
@PreMatching
public class QuorumFilter implements ContainerRequestFilter {

  @Inject Leadership leadership;

  @Override
  public void filter(ContainerRequestContext request) {
    String path = request.getUriInfo().getPath().replaceFirst("^/", "");
    if (!path.startsWith("v1/") && !path.equals("v1")) {
      return; // /openapi describes the API; it needs no leader
    }
    if (leadership.leaderId().isEmpty() && !describesThisNode(request)) {
      throw ControlPlaneException.unavailable(
          "no leader is known (an election is in progress or there is no quorum); retry shortly",
          null);
    }
  }

  /** The node's self-description stays available: it tells an operator why there is no leader. */
  private static boolean describesThisNode(ContainerRequestContext request) {
    return request.getMethod().equals("GET")
        && request
            .getUriInfo()
            .getPath()
            .replaceAll("^/+|/+$", "")
            .equals(ClusterNodeResource.PATH);
  }
}
