package dev.controlplane.auth;

import java.util.Set;

/**
 * A validated upstream caller.
 *
 * @param principal the principal id: lowercase hex SHA-256 of {@code iss + "|" + sub}
 * @param groups the {@code group:<name>} subjects from the issuer's groups claim
 */
public record UpstreamIdentity(
    String principal, String issuer, String subject, Set<String> groups) {}
