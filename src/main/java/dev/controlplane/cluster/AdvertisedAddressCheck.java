package dev.controlplane.cluster;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.logging.Logger;
import org.jgroups.Address;
import org.jgroups.View;

/**
 * Finds the members that advertise the same HTTP or gRPC address as another member. The leader's
 * advertised addresses are where followers send every client (a {@code Location} header, the {@code
 * x-leader} trailer), so a node that advertises another node's address (a configuration copied from
 * it) sends clients to a follower, which sends them back to itself. Each node carries fingerprints
 * of its {@code SERVICE_CONTROLPLANE_ADVERTISED_HTTP} and {@code
 * SERVICE_CONTROLPLANE_ADVERTISED_GRPC} in its address; which of two nodes is wrong is for the
 * operator to say, so both are reported on every node, and none is stopped.
 *
 * <h2>Thread safety</h2>
 *
 * Views arrive on JGroups threads and are read from any; the last result is volatile.
 */
final class AdvertisedAddressCheck {

  static final String HTTP_KEY = "cp-http";
  static final String GRPC_KEY = "cp-grpc";

  private static final Logger LOG = Logger.getLogger(AdvertisedAddressCheck.class.getName());
  private static final Map<String, String> SETTINGS =
      Map.of(
          HTTP_KEY, "SERVICE_CONTROLPLANE_ADVERTISED_HTTP",
          GRPC_KEY, "SERVICE_CONTROLPLANE_ADVERTISED_GRPC");

  private final String nodeId;
  private final String http;
  private final String grpc;

  private volatile List<String> sharing = List.of();

  AdvertisedAddressCheck(String nodeId, String http, String grpc) {
    this.nodeId = nodeId;
    this.http = http;
    this.grpc = grpc;
  }

  /** Judges a new view: logs each change of the members that share an advertised address. */
  void viewAccepted(View view) {
    List<String> problems = new ArrayList<>();
    TreeSet<String> names = new TreeSet<>();
    for (String key : List.of(HTTP_KEY, GRPC_KEY)) {
      for (List<String> group : sharingOne(view, key)) {
        names.addAll(group);
        problems.add("nodes " + group + " advertise the same " + SETTINGS.get(key));
      }
    }
    List<String> now = List.copyOf(names);
    if (now.equals(sharing)) {
      return;
    }
    sharing = now;
    if (now.isEmpty()) {
      LOG.info("node " + nodeId + ": every node in the view advertises addresses of its own");
      return;
    }
    LOG.severe(
        "node "
            + nodeId
            + ": "
            + String.join("; ", problems)
            + (now.contains(nodeId) ? " (this node's: '" + http + "' and '" + grpc + "')" : "")
            + ". Followers send clients to the leader's advertised addresses, so each node must"
            + " advertise its own: correct the node whose setting names another node.");
  }

  /** The members of the last view that share an advertised address with another, by name. */
  List<String> sharing() {
    return sharing;
  }

  /** The groups of two or more members of {@code view} whose entry {@code key} is equal. */
  static List<List<String>> sharingOne(View view, String key) {
    Map<String, List<String>> byValue = new TreeMap<>();
    for (Address member : view.getMembers()) {
      byte[] value = MemberEntries.get(member, key);
      if (value != null) {
        byValue
            .computeIfAbsent(Arrays.toString(value), v -> new ArrayList<>())
            .add(MemberEntries.name(member));
      }
    }
    return byValue.values().stream()
        .filter(group -> group.size() > 1)
        .map(group -> group.stream().sorted().toList())
        .toList();
  }

  /** The address entry for an advertised address. */
  static byte[] entry(String advertised) {
    return MemberEntries.fingerprint(advertised);
  }
}
