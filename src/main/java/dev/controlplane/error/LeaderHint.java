package dev.controlplane.error;

/**
 * Who can take a write this node refused: the leader's node id and, when known, its advertised HTTP
 * base URL and gRPC address (either may be null).
 */
public record LeaderHint(String nodeId, String httpUrl, String grpcAddress) {}
