package dev.controlplane.metadata.store;

import dev.controlplane.metadata.model.ShardPlacement.ShardAssignment;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code broker_load} table: how many shard replicas and leaderships each broker holds. Kept in
 * step with {@code shard_placements} by {@link ResourceStore} in the same transaction, so it is
 * exactly the count of the committed placements.
 */
@ApplicationScoped
public class BrokerLoadTable {

  @PersistenceContext(unitName = "controlplane")
  EntityManager em;

  /** One broker's counts. */
  public record Load(int replicas, int leaders) {}

  void change(List<ShardAssignment> before, List<ShardAssignment> after) {
    Map<String, int[]> delta = new TreeMap<>();
    count(before, delta, -1);
    count(after, delta, 1);
    delta.forEach(
        (broker, d) -> {
          if (d[0] != 0 || d[1] != 0) {
            em.createNativeQuery(
                    // CHECK constraints apply to the proposed row before ON CONFLICT, hence
                    // greatest().
                    "INSERT INTO broker_load (broker, replicas, leaders) VALUES (?1, greatest(?2, 0), greatest(?3, 0))"
                        + " ON CONFLICT (broker) DO UPDATE SET replicas = broker_load.replicas + ?2,"
                        + " leaders = broker_load.leaders + ?3")
                .setParameter(1, broker)
                .setParameter(2, d[0])
                .setParameter(3, d[1])
                .executeUpdate();
          }
        });
  }

  private static void count(List<ShardAssignment> assignments, Map<String, int[]> delta, int sign) {
    for (ShardAssignment a : assignments) {
      for (String replica : a.replicas()) {
        delta.computeIfAbsent(replica, b -> new int[2])[0] += sign;
      }
      delta.computeIfAbsent(a.leader(), b -> new int[2])[1] += sign;
    }
  }

  public Map<String, Load> all() {
    Map<String, Load> out = new TreeMap<>();
    @SuppressWarnings("unchecked")
    List<Object[]> rows =
        em.createNativeQuery("SELECT broker, replicas, leaders FROM broker_load").getResultList();
    for (Object[] row : rows) {
      out.put(
          (String) row[0], new Load(((Number) row[1]).intValue(), ((Number) row[2]).intValue()));
    }
    return out;
  }
}
