package dev.controlplane.rbac;

import dev.controlplane.tx.Tx;
import dev.controlplane.write.WriteContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The RBAC tables: reads for enforcement and listing (JPA), and the statements and in-batch reads
 * of the write pipeline, which makes every change. Every change bumps the tenant's {@code
 * rbac_revisions} row in the same transaction (a trigger of the schema does it, so hand edits count
 * too), which is how every node learns that its cached enforcer is stale.
 */
@ApplicationScoped
@Tx
public class RbacStore {

  @PersistenceContext(unitName = "controlplane")
  EntityManager em;

  public long revision(String tenant) {
    List<?> rows =
        em.createNativeQuery("SELECT revision FROM rbac_revisions WHERE tenant = ?1")
            .setParameter(1, tenant)
            .getResultList();
    return rows.isEmpty() ? 0 : ((Number) rows.get(0)).longValue();
  }

  public List<PolicyRule> policies(String tenant) {
    List<?> rows =
        em.createNativeQuery(
                "SELECT subject, object, action FROM rbac_policies WHERE tenant = ?1 ORDER BY subject, object, action")
            .setParameter(1, tenant)
            .getResultList();
    return rows.stream()
        .map(r -> (Object[]) r)
        .map(r -> new PolicyRule((String) r[0], (String) r[1], (String) r[2]))
        .toList();
  }

  public List<Grouping> groupings(String tenant) {
    List<?> rows =
        em.createNativeQuery(
                "SELECT principal, role FROM rbac_groupings WHERE tenant = ?1 ORDER BY principal, role")
            .setParameter(1, tenant)
            .getResultList();
    return rows.stream()
        .map(r -> (Object[]) r)
        .map(r -> new Grouping((String) r[0], (String) r[1]))
        .toList();
  }

  // ---- the write pipeline's side: reads on its connection, and its row changes ----

  static final String INSERT_POLICY =
      "INSERT INTO rbac_policies (tenant, subject, object, action) VALUES (?, ?, ?, ?)"
          + " ON CONFLICT DO NOTHING";
  static final String DELETE_POLICY =
      "DELETE FROM rbac_policies WHERE tenant = ? AND subject = ? AND object = ? AND action = ?";
  static final String INSERT_GROUPING =
      "INSERT INTO rbac_groupings (tenant, principal, role) VALUES (?, ?, ?) ON CONFLICT DO NOTHING";
  static final String DELETE_GROUPING =
      "DELETE FROM rbac_groupings WHERE tenant = ? AND principal = ? AND role = ?";

  /** Adds the policy in the operation's batch (nothing when it exists). */
  public static void addPolicy(WriteContext write, String tenant, PolicyRule rule) {
    write.sql(INSERT_POLICY, tenant, rule.subject(), rule.object(), rule.action());
  }

  /** Adds the grouping in the operation's batch (nothing when it exists). */
  public static void addGrouping(WriteContext write, String tenant, Grouping grouping) {
    write.sql(INSERT_GROUPING, tenant, grouping.principal(), grouping.role());
  }

  static List<PolicyRule> policies(Connection c, String tenant) throws SQLException {
    List<PolicyRule> out = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT subject, object, action FROM rbac_policies WHERE tenant = ?"
                + " ORDER BY subject, object, action")) {
      ps.setString(1, tenant);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(new PolicyRule(rs.getString(1), rs.getString(2), rs.getString(3)));
        }
      }
    }
    return out;
  }

  static List<Grouping> groupings(Connection c, String tenant) throws SQLException {
    List<Grouping> out = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT principal, role FROM rbac_groupings WHERE tenant = ? ORDER BY principal, role")) {
      ps.setString(1, tenant);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(new Grouping(rs.getString(1), rs.getString(2)));
        }
      }
    }
    return out;
  }
}
