package dev.controlplane.cluster;

import java.util.UUID;

/**
 * The database a node uses: its {@code cluster_state.database_id}, and where the node's connection
 * found it ({@code database 'controlplane' on 10.0.0.5:5432}) for the operator reading a message.
 */
public record DatabaseIdentity(UUID id, String where) {}
