/**
 * Per-tenant in-memory copies of what the token exchange and authorisation read on every request
 * (RBAC enforcers, trusted issuers, signing keys), dropped when the database says they changed.
 */
package dev.controlplane.cache;
