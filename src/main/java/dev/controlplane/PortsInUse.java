package dev.controlplane;

import dev.controlplane.error.PortUnavailableException;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * The node's listeners (HTTP, gRPC, the cluster, bootstrap), each tried once before the node
 * touches its database or the cluster: a port another process holds stops the start with every such
 * port named in one line, instead of after the node ran its migrations, joined the Raft cluster
 * (where it could win an election it cannot serve) and bound its other listeners. A failure other
 * than a port in use (an address of another machine, say) is left to the listener's own bind, which
 * names it. Trying the HTTP port here is safe because Liberty opens it only once the application
 * has started; a port taken after this check is still found by each listener's bind
 * (HttpListenerCheck for Liberty's, which only logs its failure).
 */
final class PortsInUse {

  private record Listener(String what, InetSocketAddress address, String setting) {}

  private final List<Listener> listeners = new ArrayList<>();

  /**
   * @param what what listens there, as in "cannot listen for gRPC"
   * @param setting the setting that names the address, in the operator's words
   */
  PortsInUse add(String what, InetSocketAddress address, String setting) {
    listeners.add(new Listener(what, address, setting));
    return this;
  }

  /** Throws, naming each listener whose port is in use; returns if none is. */
  void requireNone() {
    List<String> taken = new ArrayList<>();
    for (Listener l : listeners) {
      if (inUse(l.address())) {
        taken.add(
            "cannot listen for "
                + l.what()
                + " on "
                + l.address().getHostString()
                + ":"
                + l.address().getPort()
                + " ("
                + l.setting()
                + "): the port is in use");
      }
    }
    if (!taken.isEmpty()) {
      throw new PortUnavailableException(
          String.join("; ", taken)
              + ". Another process holds "
              + (taken.size() == 1 ? "it" : "them")
              + ", or a node with the same settings runs on this machine already.",
          null);
    }
  }

  /** Binds as the listener will (SO_REUSEADDR, as Netty, JGroups and the JDK's server set it). */
  static boolean inUse(InetSocketAddress given) {
    InetSocketAddress address =
        given.isUnresolved()
            ? new InetSocketAddress(given.getHostString(), given.getPort())
            : given;
    if (address.isUnresolved()) {
      return false;
    }
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(true);
      socket.bind(address);
      return false;
    } catch (BindException e) {
      return String.valueOf(e.getMessage()).contains("in use");
    } catch (IOException e) {
      return false;
    }
  }
}
