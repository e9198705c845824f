package dev.controlplane.cluster;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.logging.Logger;
import org.jgroups.Address;
import org.jgroups.View;

/**
 * Finds the nodes configured with another member list than this one. Raft counts majorities and
 * votes over the configured list, so nodes that disagree on it can each count a different majority;
 * nothing else tells an operator who mistyped one node's setting. Each node carries a fingerprint
 * of its list in its JGroups address (an {@code ExtendedUUID} entry, as jgroups-raft carries the
 * Raft id), so every view shows which members disagree.
 *
 * <h2>Thread safety</h2>
 *
 * Views arrive on JGroups threads and are read from any; the last result is volatile.
 */
final class MemberListCheck {

  /** The address entry holding the fingerprint. */
  static final String KEY = "cp-members";

  private static final Logger LOG = Logger.getLogger(MemberListCheck.class.getName());

  private final String nodeId;
  private final String members;
  private final byte[] own;

  /** Written by the JGroups thread that accepts each view. */
  private volatile List<String> disagreeing = List.of();

  MemberListCheck(String nodeId, ClusterMembers members) {
    this.nodeId = nodeId;
    this.members = members.canonical();
    this.own = fingerprint(members);
  }

  /** Judges a new view: logs each change of the members that disagree. */
  void viewAccepted(View view) {
    List<String> now = disagreeing(view);
    if (now.equals(disagreeing)) {
      return;
    }
    disagreeing = now;
    if (now.isEmpty()) {
      LOG.info("node " + nodeId + ": every node in the view has this node's member list");
    } else {
      LOG.severe(
          "node "
              + nodeId
              + ": nodes "
              + now
              + " are configured with another SERVICE_CONTROLPLANE_CLUSTER_MEMBERS than this"
              + " node's '"
              + members
              + "'. Every node must list the same members: Raft counts votes and majorities over"
              + " that list. Compare the members of each node (GET /v1/cluster/node, or cpctl"
              + " cluster status) and correct the one that differs.");
    }
  }

  /** The members of the last view whose list differs from this node's, by name. */
  List<String> disagreeing() {
    return disagreeing;
  }

  /** The members of {@code view} whose list differs from this node's, by name. */
  List<String> disagreeing(View view) {
    List<String> names = new ArrayList<>();
    for (Address member : view.getMembers()) {
      byte[] theirs = MemberEntries.get(member, KEY);
      if (theirs != null && !Arrays.equals(theirs, own)) {
        names.add(String.valueOf(member));
      }
    }
    return List.copyOf(names);
  }

  /** A fingerprint of the list's canonical form. */
  static byte[] fingerprint(ClusterMembers members) {
    return MemberEntries.fingerprint(members.canonical());
  }
}
