package dev.controlplane.cluster;

/**
 * The leadership recorded in {@code cluster_state}: the fencing term, the Raft term it was won in,
 * and the leader's node id and advertised addresses (any may be null before the first claim).
 */
public record LeaderRecord(
    long term, long raftTerm, String nodeId, String httpUrl, String grpcAddress) {

  static final LeaderRecord NONE = new LeaderRecord(0, 0, null, null, null);
}
