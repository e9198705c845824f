package dev.controlplane.cluster;

import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Leadership of a node configured without cluster members: it leads itself. At start it claims a
 * new term in PostgreSQL, so that a second process pointed at the same database by mistake fences
 * the first one off instead of interleaving writes with it.
 */
public final class SingleNodeLeadership implements Leadership {

  private final String nodeId;
  private volatile long term;
  private volatile Instant since;

  public SingleNodeLeadership(String nodeId) {
    this.nodeId = nodeId;
  }

  void lead(long claimedTerm) {
    this.since = Instant.now();
    this.term = claimedTerm;
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
    return Optional.empty();
  }

  @Override
  public Role role() {
    return term > 0 ? Role.LEADER : Role.CANDIDATE;
  }

  @Override
  public Optional<Instant> leaderSince() {
    return Optional.ofNullable(since);
  }
}
