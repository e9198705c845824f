package dev.controlplane.bench;

import dev.controlplane.it.support.TestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

/**
 * Fills a migrated, empty database with a large cluster directly in SQL (creating 100,000 streams
 * through the API would take longer than the measurement): brokers, one tenant, 100 namespaces,
 * streams with {@code shards} shards at replication factor 3 spread round-robin over the brokers,
 * all at metadata version 1 with an empty log. A node started on it loads the image from these
 * tables, as after any restart.
 */
final class ScaleSeed {

  private ScaleSeed() {}

  static void seed(String dbUrl, int brokers, int streams, int shards) throws Exception {
    int namespaces = 100;
    try (Connection c =
            DriverManager.getConnection(dbUrl, TestDatabase.USER, TestDatabase.PASSWORD);
        Statement s = c.createStatement()) {
      s.execute(
          "INSERT INTO brokers (name, address, region, availability_zone, status, version)"
              + " SELECT 'broker-' || lpad(i::text, 5, '0'), '10.1.' || (i / 250) || '.' || (i % 250)"
              + " || ':7000', 'r1', 'z' || (i % 3), 'active', 1 FROM generate_series(0, "
              + (brokers - 1)
              + ") i");
      s.execute("INSERT INTO tenants (name, description, version) VALUES ('scale', 'scale', 1)");
      s.execute(
          "INSERT INTO namespaces (tenant, name, version) SELECT 'scale', 'n' || i, 1"
              + " FROM generate_series(0, "
              + (namespaces - 1)
              + ") i");
      s.execute(
          "INSERT INTO streams (tenant, namespace, name, shards, retention_time, retention_ms,"
              + " durability, replication_factor, ack_policy, version) SELECT 'scale', 'n' || (i % "
              + namespaces
              + "), 's' || i, "
              + shards
              + ", '7d', 604800000, 'durable', 3, 'quorum', 1 FROM generate_series(0, "
              + (streams - 1)
              + ") i");
      s.execute(
          "INSERT INTO shard_placements (tenant, namespace, stream, placements, version)"
              + " SELECT 'scale', 'n' || (i % "
              + namespaces
              + "), 's' || i, (SELECT jsonb_agg(jsonb_build_object('shard_id', k, 'leader', "
              + broker(0, brokers)
              + ", 'replicas', jsonb_build_array("
              + broker(0, brokers)
              + ", "
              + broker(1, brokers)
              + ", "
              + broker(2, brokers)
              + ")) ORDER BY k) FROM generate_series(0, "
              + (shards - 1)
              + ") k), 1 FROM generate_series(0, "
              + (streams - 1)
              + ") i");
      s.execute("UPDATE cluster_state SET metadata_version = 1, retained_from = 2");
      s.execute("ANALYZE");
    }
  }

  /** Replica {@code r} of shard {@code k} of stream {@code i}, round robin over the brokers. */
  private static String broker(int r, int brokers) {
    return "('broker-' || lpad(((i * 16 + k * 3 + " + r + ") % " + brokers + ")::text, 5, '0'))";
  }
}
