package dev.controlplane.cluster;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * Leadership of a node configured without cluster members: it leads itself. At start it claims a
 * new term in PostgreSQL, so that a second process pointed at the same database by mistake fences
 * the first one off instead of interleaving writes with it.
 */
public final class SingleNodeLeadership implements Leadership {

  private final String nodeId;
  private final String httpUrl;
  private final String grpcAddress;
  private volatile long term;

  public SingleNodeLeadership(String nodeId, String httpUrl, String grpcAddress) {
    this.nodeId = nodeId;
    this.httpUrl = httpUrl;
    this.grpcAddress = grpcAddress;
  }

  /** Claims the next term for this node (Raft term 0: any Raft leader may supersede it). */
  public void lead(TermStore terms) throws java.sql.SQLException {
    TermStore.Claim claim =
        terms.claim(
            nodeId,
            0,
            httpUrl,
            grpcAddress,
            true,
            java.time.Duration.ZERO,
            java.time.Duration.ZERO);
    if (!claim.won()) {
      throw new IllegalStateException("cluster_state has no row: the schema is not migrated");
    }
    long claimed = claim.term();
    this.term = claimed;
  }

  @Override
  public OptionalLong term() {
    long t = term;
    return t > 0 ? OptionalLong.of(t) : OptionalLong.empty();
  }

  @Override
  public Optional<String> leaderId() {
    return term > 0 ? Optional.of(nodeId) : Optional.empty();
  }

  @Override
  public Optional<String> leaderHttpAddress() {
    return term > 0 ? Optional.of(httpUrl) : Optional.empty();
  }

  @Override
  public Optional<String> leaderGrpcAddress() {
    return term > 0 ? Optional.of(grpcAddress) : Optional.empty();
  }

  @Override
  public Role role() {
    return term > 0 ? Role.LEADER : Role.CANDIDATE;
  }
}
