/**
 * The versioned change log: the one place that assigns metadata versions and the only way the
 * current state changes. Also the outbox that watches read from.
 */
package dev.controlplane.metadata.log;
