package dev.controlplane.broker.rebalance;

import dev.controlplane.metadata.model.StreamRef;

/**
 * One step of a plan: a replica of a shard moves from one broker to another, or, when {@code
 * leadership} is true, only the leadership moves between two brokers that both keep a replica.
 */
public record PlannedMove(
    StreamRef stream, int shardId, String from, String to, boolean leadership) {}
