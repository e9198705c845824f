/**
 * Role-based access control with the tenant as the jcasbin domain: the object grammar, actions and
 * their inheritance, policies and groupings stored in PostgreSQL through an adapter of our own,
 * per-tenant enforcers kept current by a revision check, and the scope rules of RBAC writes.
 * Objects match with {@code *}-only wildcards (keyMatch), never keyMatch2 (see docs/security.md).
 */
package dev.controlplane.rbac;
