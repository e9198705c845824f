package dev.controlplane.rbac;

/**
 * A stored policy line {@code p, subject, tenant, object, action}: the subject may do the action on
 * the object.
 */
public record PolicyRule(String subject, String object, String action) {}
