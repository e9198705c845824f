package dev.controlplane.cluster;

import dev.controlplane.config.Settings;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Raft members of the cluster: node id to the host and port its JGroups transport listens on,
 * parsed from {@code cp1=127.0.0.1:7800,cp2=127.0.0.1:7801,cp3=127.0.0.1:7802}. Every node must be
 * configured with the same list; an empty list means a single-node cluster.
 */
public final class ClusterMembers {

  private static final java.util.regex.Pattern ID =
      java.util.regex.Pattern.compile("[a-z0-9][a-z0-9._-]{0,62}");

  private final Map<String, InetSocketAddress> members;

  private ClusterMembers(Map<String, InetSocketAddress> members) {
    this.members = Collections.unmodifiableMap(members);
  }

  public static ClusterMembers parse(String text) {
    Map<String, InetSocketAddress> members = new LinkedHashMap<>();
    for (String entry : text.split(",")) {
      if (entry.isBlank()) {
        continue;
      }
      String[] idAndAddress = entry.trim().split("=", 2);
      if (idAndAddress.length != 2 || !ID.matcher(idAndAddress[0].trim()).matches()) {
        throw invalid(
            text, "'" + entry.trim() + "' is not id=host:port with an id of a-z 0-9 . _ -");
      }
      String id = idAndAddress[0].trim();
      InetSocketAddress address = address(text, idAndAddress[1].trim());
      for (Map.Entry<String, InetSocketAddress> other : members.entrySet()) {
        if (other.getValue().equals(address)) {
          // Two members cannot listen on one address: one of the entries is mistyped.
          throw invalid(
              text,
              "nodes '"
                  + other.getKey()
                  + "' and '"
                  + id
                  + "' have the same address "
                  + idAndAddress[1].trim());
        }
      }
      if (members.put(id, address) != null) {
        throw invalid(text, "node id '" + id + "' appears twice");
      }
    }
    return new ClusterMembers(members);
  }

  private static InetSocketAddress address(String text, String hostPort) {
    try {
      return Settings.hostAndPort(hostPort);
    } catch (Settings.MalformedAddress e) {
      throw invalid(text, e.getMessage());
    }
  }

  private static Invalid invalid(String text, String why) {
    return new Invalid(text, why);
  }

  /** A member list that does not parse; {@link #why} says what is wrong without the value. */
  public static final class Invalid extends IllegalArgumentException {
    private final String why;

    Invalid(String text, String why) {
      super("SERVICE_CONTROLPLANE_CLUSTER_MEMBERS = '" + text + "': " + why);
      this.why = why;
    }

    public String why() {
      return why;
    }
  }

  public boolean isEmpty() {
    return members.isEmpty();
  }

  public boolean contains(String nodeId) {
    return members.containsKey(nodeId);
  }

  public List<String> ids() {
    return new ArrayList<>(members.keySet());
  }

  /** The transport address of {@code nodeId}, unresolved. */
  public InetSocketAddress address(String nodeId) {
    InetSocketAddress address = members.get(nodeId);
    if (address == null) {
      throw new IllegalArgumentException("no cluster member '" + nodeId + "'");
    }
    return address;
  }

  public List<InetSocketAddress> addresses() {
    return new ArrayList<>(members.values());
  }

  /** The list in one form whatever the order or spacing it was written in: sorted by id. */
  public String canonical() {
    return members.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .map(e -> e.getKey() + "=" + hostForm(e.getValue()) + ":" + e.getValue().getPort())
        .collect(java.util.stream.Collectors.joining(","));
  }

  private static String hostForm(InetSocketAddress address) {
    String host = address.getHostString();
    return host.contains(":") ? "[" + host + "]" : host;
  }
}
