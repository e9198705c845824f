package dev.controlplane.broker;

import java.util.List;

/**
 * What a broker reports with each heartbeat. Metrics and shard statuses are kept as the broker sent
 * them (JSON) for stream metrics and the delete safety check.
 */
public record HealthReport(
    String brokerId,
    boolean healthy,
    String message,
    long uptimeSeconds,
    String metricsJson,
    List<ShardStatus> shards,
    String shardStatusJson) {

  /** One shard as a broker sees it. */
  public record ShardStatus(
      String tenant,
      String namespace,
      String stream,
      int shardId,
      String role,
      int activeSubscribers) {}
}
