/**
 * The wire: a small HTTP client (server failover, following the leader, problem+json errors), the
 * gRPC channels and stubs, TLS from a CA file, and the credentials of the current context.
 */
package dev.controlplane.cli.client;
