package dev.controlplane;

import dev.controlplane.error.PortUnavailableException;
import dev.controlplane.http.PortOwnership;
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
 * names it, as is a port taken after this check (HttpListenerCheck for Liberty's, which only logs
 * its failure). Liberty opens the HTTP port once the application has started, or after 30 s of a
 * start that has not finished (a loaded machine): a port this process holds already, by the
 * kernel's socket tables, is its own and not reported.
 */
final class PortsInUse {

  private record Listener(
      String what, InetSocketAddress address, String setting, boolean mayBeOpenAlready) {}

  private final List<Listener> listeners = new ArrayList<>();

  /**
   * @param what what listens there, as in "cannot listen for gRPC"
   * @param setting the setting that names the address, in the operator's words
   */
  PortsInUse add(String what, InetSocketAddress address, String setting) {
    listeners.add(new Listener(what, address, setting, false));
    return this;
  }

  /**
   * A listener Liberty may have opened before this check runs: where the socket tables cannot be
   * read, a port in use is left to the check after start-up rather than reported.
   */
  PortsInUse addLibertys(String what, InetSocketAddress address, String setting) {
    listeners.add(new Listener(what, address, setting, true));
    return this;
  }

  /** Throws, naming each listener whose port is in use; returns if none is. */
  void requireNone() {
    List<String> taken = new ArrayList<>();
    for (Listener l : listeners) {
      if (inUse(l.address()) && heldByAnother(l)) {
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

  private static boolean heldByAnother(Listener l) {
    return switch (PortOwnership.of(l.address().getPort())) {
      case THIS_PROCESS -> false;
      case UNKNOWN -> !l.mayBeOpenAlready();
      case ANOTHER_PROCESS, NOBODY -> true;
    };
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
