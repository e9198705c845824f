package dev.controlplane.cluster;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jgroups.Address;
import org.jgroups.View;
import org.jgroups.util.ExtendedUUID;

/**
 * Finds the nodes configured with another member list than this one. Raft counts majorities and
 * votes over the configured list, so nodes that disagree on it can each count a different majority;
 * nothing else tells an operator who mistyped one node's setting. Each node carries a fingerprint
 * of its list in its JGroups address (an {@link ExtendedUUID} entry, as jgroups-raft carries the
 * Raft id), so every view shows which members disagree.
 */
final class MemberListCheck {

  /** The address entry holding the fingerprint. */
  static final String KEY = "cp-members";

  private final byte[] own;

  MemberListCheck(ClusterMembers members) {
    this.own = fingerprint(members);
  }

  /** The members of {@code view} whose list differs from this node's, by name. */
  List<String> disagreeing(View view) {
    List<String> names = new ArrayList<>();
    for (Address member : view.getMembers()) {
      if (member instanceof ExtendedUUID extended) {
        byte[] theirs = extended.get(KEY);
        if (theirs != null && !Arrays.equals(theirs, own)) {
          names.add(String.valueOf(member));
        }
      }
    }
    return List.copyOf(names);
  }

  /** The first 8 bytes of the SHA-256 of the list's canonical form: enough to tell lists apart. */
  static byte[] fingerprint(ClusterMembers members) {
    try {
      return Arrays.copyOf(
          MessageDigest.getInstance("SHA-256")
              .digest(members.canonical().getBytes(StandardCharsets.UTF_8)),
          8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JDK", e);
    }
  }
}
