/**
 * cpctl, the command-line client of the control plane: contexts, declarative apply, reads, watches,
 * snapshots and administration, over the public HTTP and gRPC APIs only. Packed into {@code
 * target/cpctl.jar}; none of it is part of the server. docs/cli.md describes every command.
 */
package dev.controlplane.cli;
