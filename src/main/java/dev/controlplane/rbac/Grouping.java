package dev.controlplane.rbac;

/**
 * A stored assignment edge {@code g, principal, role, tenant}: the principal (or group) holds the
 * role (or group).
 */
public record Grouping(String principal, String role) {}
