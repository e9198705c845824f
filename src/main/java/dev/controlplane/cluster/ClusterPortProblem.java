package dev.controlplane.cluster;

import dev.controlplane.error.PortUnavailableException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Optional;

/**
 * Why a node could not listen on its cluster address, in the operator's terms: the address is
 * another machine's (the node was started with another node's SERVICE_CONTROLPLANE_NODE_ID, or its
 * entry in SERVICE_CONTROLPLANE_CLUSTER_MEMBERS is mistyped), or its port is taken. JGroups says
 * only "No available port to bind to in range".
 */
final class ClusterPortProblem {

  private ClusterPortProblem() {}

  /** The explanation when {@code failure} (from joining the cluster) is a failed bind. */
  static Optional<PortUnavailableException> of(
      String nodeId, InetSocketAddress address, Exception failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof BindException) {
        return Optional.of(new PortUnavailableException(message(nodeId, address, t), failure));
      }
    }
    return Optional.empty();
  }

  private static String message(String nodeId, InetSocketAddress address, Throwable bind) {
    String where =
        address.getHostString()
            + ":"
            + address.getPort()
            + " (node "
            + nodeId
            + "'s address in SERVICE_CONTROLPLANE_CLUSTER_MEMBERS)";
    if (!isLocal(address)) {
      return "cannot listen for the cluster on "
          + where
          + ": no network interface of this machine has that address. Start each node with its"
          + " own SERVICE_CONTROLPLANE_NODE_ID (this one is '"
          + nodeId
          + "'), and give each member its machine's address in"
          + " SERVICE_CONTROLPLANE_CLUSTER_MEMBERS.";
    }
    return "cannot listen for the cluster on "
        + where
        + ": the port is in use ("
        + bind.getMessage()
        + "). Another process holds it, or a node with the same SERVICE_CONTROLPLANE_NODE_ID runs"
        + " on this machine already.";
  }

  private static boolean isLocal(InetSocketAddress address) {
    try {
      InetAddress ip = InetAddress.getByName(address.getHostString());
      return ip.isAnyLocalAddress()
          || ip.isLoopbackAddress()
          || NetworkInterface.getByInetAddress(ip) != null;
    } catch (UnknownHostException | SocketException e) {
      return true; // cannot tell: say what JGroups said
    }
  }
}
