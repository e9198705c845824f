package dev.controlplane.broker;

import dev.controlplane.metadata.model.StreamRef;
import dev.controlplane.tx.Tx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hibernate.Session;

/**
 * What brokers report about streams in their heartbeats (broker_health.shard_status, as the
 * protobuf JSON of ShardStatus: fields left at their default are absent). Reports of brokers marked
 * down are ignored: they are stale.
 */
@ApplicationScoped
@Tx
public class BrokerHealthQueries {

  private static final String SHARDS =
      " FROM broker_health h JOIN brokers b ON b.name = h.broker AND b.status <> 'down',"
          + " jsonb_array_elements(h.shard_status) s"
          + " WHERE s->>'tenant_id' = ?1 AND s->>'namespace' = ?2";

  @PersistenceContext(unitName = "controlplane")
  EntityManager em;

  /** Aggregated over every shard of a stream, from the reports of live brokers. */
  public record StreamMetrics(
      long activeSubscribers,
      double publishRate,
      long storageBytes,
      int shardsReporting,
      int shardsInSync) {
    public static final StreamMetrics NONE = new StreamMetrics(0, 0, 0, 0, 0);
  }

  /** The same sum, read on the write pipeline's connection (inside its batch transaction). */
  public static long activeSubscribers(java.sql.Connection c, StreamRef ref)
      throws java.sql.SQLException {
    try (var ps =
        c.prepareStatement(
            ("SELECT coalesce(sum(coalesce((s->>'active_subscribers')::bigint, 0)), 0)"
                    + SHARDS
                    + " AND s->>'stream' = ?3")
                .replace("?1", "?")
                .replace("?2", "?")
                .replace("?3", "?"))) {
      ps.setString(1, ref.tenant());
      ps.setString(2, ref.namespace());
      ps.setString(3, ref.stream());
      try (var rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /**
   * Per reported shard of the named streams: what live brokers report, summed. Then, per placed
   * shard, whether it is in sync: every one of its replicas is on a live broker that reports it in
   * sync. Counting only the reports would hide the replicas that matter most, those on a broker
   * that is down or that does not report the shard at all.
   */
  private static final String METRICS =
      "WITH reports AS ("
          + " SELECT h.broker, s->>'stream' AS stream, coalesce(s->>'shard_id', '0') AS shard, s"
          + SHARDS.replace("?1", "?").replace("?2", "?")
          + " AND s->>'stream' = ANY(?)),"
          + " per_shard AS ("
          + " SELECT stream, sum(coalesce((s->>'active_subscribers')::bigint, 0)) AS subscribers,"
          + " sum(coalesce((s->>'publish_rate')::float8, 0))"
          + " FILTER (WHERE s->>'role' = 'SHARD_ROLE_LEADER') AS rate,"
          + " sum(coalesce((s->>'storage_bytes')::numeric, 0)) AS bytes,"
          + " bool_or(s->>'role' = 'SHARD_ROLE_LEADER') AS led"
          + " FROM reports GROUP BY stream, shard),"
          + " in_sync AS ("
          + " SELECT p.stream, count(*) AS shards"
          + " FROM shard_placements p, jsonb_array_elements(p.placements) placed"
          + " WHERE p.tenant = ? AND p.namespace = ? AND p.stream = ANY(?)"
          + " AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements_text(placed->'replicas') r(broker)"
          + " WHERE NOT EXISTS (SELECT 1 FROM reports x WHERE x.broker = r.broker"
          + " AND x.stream = p.stream AND x.shard = placed->>'shard_id' GROUP BY x.broker"
          + " HAVING bool_and(coalesce((x.s->>'in_sync')::boolean, false))))"
          + " GROUP BY p.stream)"
          + " SELECT ps.stream, sum(subscribers), sum(rate), sum(bytes),"
          + " count(*) FILTER (WHERE led), coalesce(max(i.shards), 0)"
          + " FROM per_shard ps LEFT JOIN in_sync i ON i.stream = ps.stream GROUP BY ps.stream";

  /** Metrics of the named streams of one namespace; streams nobody reports on are absent. */
  public Map<String, StreamMetrics> metrics(String tenant, String namespace, List<String> streams) {
    if (streams.isEmpty()) {
      return new HashMap<>();
    }
    // A real array parameter: a text literal "{a,b}" read the stream named "null" as SQL NULL.
    return em.unwrap(Session.class)
        .doReturningWork(
            c -> {
              Array names = c.createArrayOf("text", streams.toArray());
              try (PreparedStatement ps = c.prepareStatement(METRICS)) {
                ps.setString(1, tenant);
                ps.setString(2, namespace);
                ps.setArray(3, names);
                ps.setString(4, tenant);
                ps.setString(5, namespace);
                ps.setArray(6, names);
                return read(ps);
              } finally {
                names.free();
              }
            });
  }

  private static Map<String, StreamMetrics> read(PreparedStatement ps) throws SQLException {
    Map<String, StreamMetrics> out = new HashMap<>();
    try (ResultSet r = ps.executeQuery()) {
      while (r.next()) {
        // No leader reported: the sum over no rows is NULL, which getDouble reads as 0.
        out.put(
            r.getString(1),
            new StreamMetrics(
                r.getLong(2),
                r.getDouble(3),
                saturated(r.getBigDecimal(4)),
                r.getInt(5),
                r.getInt(6)));
      }
    }
    return out;
  }

  /**
   * A sum of brokers' {@code storage_bytes} (uint64 each) as a long, at most {@link
   * Long#MAX_VALUE}: a broker reporting 2^64 - 1 (an "unknown" marker) made the cast to bigint fail
   * every listing of the namespace's streams, and a large sum wrapped to a negative size.
   */
  static long saturated(Number sum) {
    java.math.BigDecimal value = new java.math.BigDecimal(sum.toString());
    return value.compareTo(java.math.BigDecimal.valueOf(Long.MAX_VALUE)) >= 0
        ? Long.MAX_VALUE
        : value.longValue();
  }
}
