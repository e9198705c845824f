/**
 * The HTTP adapter: JAX-RS resources under {@code /v1}, declarative documents in JSON or YAML, and
 * every error as RFC 9457 problem+json. No business rule lives here.
 */
package dev.controlplane.http;
