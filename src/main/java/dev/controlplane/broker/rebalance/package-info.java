/**
 * Rebalancing: from the current placements and broker states, the shard moves that evacuate
 * draining and down brokers and even out load under one of three strategies. Pure: no database.
 */
package dev.controlplane.broker.rebalance;
