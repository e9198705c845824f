package dev.controlplane.metadata.model;

/**
 * One entry of the change log. {@code resource} is the resource after the change (for a DELETE, as
 * it was deleted); {@code previous} is the resource before it, null for a CREATE, and is what lets
 * a snapshot be rolled back to an earlier version.
 */
public record MetadataUpdate(long version, UpdateType type, Resource resource, Resource previous) {}
