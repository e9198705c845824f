package dev.controlplane.cluster;

/**
 * The leadership recorded in {@code cluster_state}: the fencing term, the Raft term it was won in,
 * and the leader's node id and advertised addresses (any may be null before the first claim); and
 * the identity of the database it was read from, which must stay the one the node started on.
 */
public record LeaderRecord(
    long term,
    long raftTerm,
    String nodeId,
    String httpUrl,
    String grpcAddress,
    java.util.UUID databaseId) {

  static final LeaderRecord NONE = new LeaderRecord(0, 0, null, null, null, null);
}
