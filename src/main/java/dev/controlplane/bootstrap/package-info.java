/**
 * Seeding a tenant's authentication before any admin token exists: the tenant itself (a versioned
 * CREATE), its issuers, its first signing key and role:tenant-admin for its first admins, in one
 * transaction. Served only on the separate bootstrap listener (http.BootstrapListener).
 */
package dev.controlplane.bootstrap;
