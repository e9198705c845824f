package dev.controlplane.cluster;

import java.nio.file.Path;
import java.time.Duration;

/** What a node needs to take part in leader election, taken from the service's configuration. */
public record ClusterSettings(
    String nodeId,
    String httpUrl,
    String grpcAddress,
    ClusterMembers members,
    Path dataDir,
    Duration failureTimeout) {}
