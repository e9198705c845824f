package dev.controlplane.broker.rebalance;

/** The RebalanceStrategy of the API, as the planner understands it. */
public enum Strategy {
  /**
   * Even replica and leader counts per active broker, and each stream spread over distinct brokers.
   */
  BALANCED,
  /**
   * The fewest replica moves that bring every active broker within one of the average; zones only
   * decide between moves equally good for that count.
   */
  MINIMIZE_MOVEMENT,
  /** Replicas of a shard spread over zones, then regions; then even counts. */
  LOCALITY_AWARE
}
