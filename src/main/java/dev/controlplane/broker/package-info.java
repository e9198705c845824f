/** Brokers: registration, heartbeats, failure detection, and where shards are placed. */
package dev.controlplane.broker;
