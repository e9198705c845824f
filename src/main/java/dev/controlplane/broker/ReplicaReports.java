package dev.controlplane.broker;

import dev.controlplane.metadata.model.ShardPlacement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the replicas of some streams last reported of each shard in their heartbeats (the {@code
 * in_sync} of {@code ShardStatus}, kept in {@code broker_health.shard_status} as protobuf's JSON,
 * which leaves a false {@code in_sync} out: a shard reported without it lagged), read inside the
 * write that picks new shard leaders, one query for every stream that needs one. A shard a replica
 * did not report is unknown.
 */
final class ReplicaReports implements ShardLeadership.InSync {

  private static final String READ =
      "SELECT h.broker, s->>'tenant_id', s->>'namespace', s->>'stream',"
          + " coalesce(s->>'shard_id', '0'), coalesce((s->>'in_sync')::boolean, false)"
          + " FROM broker_health h, jsonb_array_elements(coalesce(h.shard_status, '[]'::jsonb)) s"
          + " WHERE h.broker = ANY(?) AND s->>'stream' = ANY(?)";

  private final Map<String, Boolean> inSync;

  private ReplicaReports(Map<String, Boolean> inSync) {
    this.inSync = inSync;
  }

  static ReplicaReports read(Connection c, List<ShardPlacement> placements) throws SQLException {
    String[] brokers =
        placements.stream()
            .flatMap(p -> p.placements().stream())
            .flatMap(a -> a.replicas().stream())
            .distinct()
            .toArray(String[]::new);
    String[] streams =
        placements.stream().map(ShardPlacement::stream).distinct().toArray(String[]::new);
    Map<String, Boolean> reported = new HashMap<>();
    try (PreparedStatement ps = c.prepareStatement(READ)) {
      ps.setArray(1, c.createArrayOf("text", brokers));
      ps.setArray(2, c.createArrayOf("text", streams));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          reported.put(
              key(
                  rs.getString(1),
                  rs.getString(2),
                  rs.getString(3),
                  rs.getString(4),
                  rs.getString(5)),
              rs.getBoolean(6));
        }
      }
    }
    return new ReplicaReports(reported);
  }

  @Override
  public Optional<Boolean> reported(String broker, ShardPlacement placement, int shardId) {
    return Optional.ofNullable(
        inSync.get(
            key(
                broker,
                placement.tenant(),
                placement.namespace(),
                placement.stream(),
                Integer.toString(shardId))));
  }

  private static String key(
      String broker, String tenant, String namespace, String stream, String shard) {
    return String.join("\u0000", broker, tenant, namespace, stream, shard);
  }
}
