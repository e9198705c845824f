/**
 * Authentication: validation of upstream OIDC tokens against each tenant's configured issuers, the
 * token exchange, the tenants' Ed25519 signing keys (encrypted at rest, rotated with a
 * publish-before-sign and retire-after-expiry lifecycle), their JWKS, and verification of our own
 * service tokens. All JWT parsing and signature checks are nimbus-jose-jwt's; nothing is
 * hand-rolled.
 */
package dev.controlplane.auth;
