package dev.controlplane.cluster;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import org.jgroups.Address;
import org.jgroups.util.ExtendedUUID;

/**
 * What a member's JGroups address carries beside its Raft id: entries each node puts in its own
 * address at start (RaftStack), so that every view shows how each member is configured.
 */
final class MemberEntries {

  private MemberEntries() {}

  /** The member's Raft id (its node id), as operators know it. */
  static String name(Address member) {
    String id =
        member instanceof ExtendedUUID ? org.jgroups.raft.util.Utils.extractRaftId(member) : null;
    return id != null ? id : String.valueOf(member);
  }

  /** The member's entry {@code key}, or null (an address without it, or not an ExtendedUUID). */
  static byte[] get(Address member, String key) {
    return member instanceof ExtendedUUID extended ? extended.get(key) : null;
  }

  /** The first 8 bytes of the SHA-256 of {@code text}: enough to tell settings apart. */
  static byte[] fingerprint(String text) {
    try {
      return Arrays.copyOf(
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)), 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JDK", e);
    }
  }
}
