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
 * nothing it accepts could be committed. Watches and snapshots over gRPC stay available, and so do
 * token exchanges, tenants' key sets and the node's own description ({@code GET /v1/cluster/node}).
 */
@Provider
@PreMatching
public class QuorumFilter implements ContainerRequestFilter {

  private static final java.util.regex.Pattern TOKEN_EXCHANGE =
      java.util.regex.Pattern.compile("v1/tenants/[^/]+/token/exchange/?");
  private static final java.util.regex.Pattern KEY_SET =
      java.util.regex.Pattern.compile("v1/tenants/[^/]+/\\.well-known/jwks\\.json/?");

  @Inject Leadership leadership;

  @Override
  public void filter(ContainerRequestContext request) {
    String path = request.getUriInfo().getPath().replaceFirst("^/", "");
    if (!path.startsWith("v1/") && !path.equals("v1")) {
      return; // /openapi describes the API; it needs no leader
    }
    if (leadership.leaderId().isEmpty()
        && !describesThisNode(request)
        && !servesTheDataPlane(request, path)) {
      throw ControlPlaneException.unavailable(
          "no leader is known (an election is in progress or there is no quorum); nothing was"
              + " written; retry shortly",
          null);
    }
  }

  /**
   * Token exchanges and key sets stay available: clients and brokers need them to connect and to
   * verify tokens, and the data plane must never wait for an election. Neither needs a leader: both
   * are served from this node's memory, whose copies the database's notifications keep current (not
   * Raft), and an exchange's audit record is this node's own insert.
   */
  private static boolean servesTheDataPlane(ContainerRequestContext request, String path) {
    return switch (request.getMethod()) {
      case "POST" -> TOKEN_EXCHANGE.matcher(path).matches();
      case "GET" -> KEY_SET.matcher(path).matches();
      default -> false;
    };
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
