/**
 * {@code cpctl apply} and {@code cpctl delete}: documents read from files, put in dependency order,
 * written one per request with optimistic concurrency, each reported as created, configured,
 * unchanged, conflict, invalid or failed; server-side dry runs and pruning.
 */
package dev.controlplane.cli.apply;
