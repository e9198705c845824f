package dev.controlplane.cluster;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * This node's view of leadership.
 *
 * <h2>Lifecycle</h2>
 *
 * A node starts as a follower. When it wins leadership it records its term in {@code cluster_state}
 * (a term greater than any before) and only then reports {@link #term()}; when it loses it stops
 * reporting a term before anything else happens.
 *
 * <h2>Fencing</h2>
 *
 * {@link #term()} is a claim, not a proof: a paused leader may still believe it leads. Every write
 * batch of the pipeline compares the claim with the recorded term in the statement that takes the
 * row lock of {@code cluster_state} ({@code write.BatchTransaction}), so a stale leader's writes,
 * of any table, fail instead of committing.
 *
 * <h2>Thread safety</h2>
 *
 * Implementations are read from any thread.
 */
public interface Leadership {

  /** The term this node leads in, or empty when it is not the leader. */
  OptionalLong term();

  /** The node id of the current leader, when known (this node included). */
  Optional<String> leaderId();

  /** Where clients can reach the leader's HTTP API, when known (for a {@code Location} header). */
  Optional<String> leaderHttpAddress();

  /**
   * Where brokers can reach the leader's gRPC API ({@code host:port}), when known (for {@code
   * x-leader}).
   */
  Optional<String> leaderGrpcAddress();

  /**
   * The nodes in this node's current cluster view that are configured with another member list
   * (none for a single node).
   */
  default java.util.List<String> membersDisagreeing() {
    return java.util.List.of();
  }

  /**
   * The nodes in this node's current cluster view that use another database than this node's (none
   * for a single node).
   */
  default java.util.List<String> membersOnOtherDatabase() {
    return java.util.List.of();
  }

  /**
   * The nodes in this node's current cluster view, this one included, that advertise the same HTTP
   * or gRPC address as another (none for a single node).
   */
  default java.util.List<String> membersSharingAddresses() {
    return java.util.List.of();
  }

  /**
   * The fencing term of the current leader as far as this node knows (its own when it leads), 0
   * when none is known; for health and metrics only, never for fencing.
   */
  default long knownTerm() {
    return term().orElse(0);
  }

  /** This node's role, for health and metrics. */
  Role role();

  enum Role {
    LEADER,
    FOLLOWER,
    CANDIDATE
  }
}
