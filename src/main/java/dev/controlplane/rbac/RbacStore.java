package dev.controlplane.rbac;

import dev.controlplane.tx.Tx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;

/**
 * The RBAC tables. Every change bumps the tenant's {@code rbac_revisions} row in the same
 * transaction (a trigger of the schema does it, so hand edits count too), which is how every node
 * learns that its cached enforcer is stale.
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

  /**
   * Whether the tenant exists; if so its row is share-locked until the transaction ends, so it
   * cannot be deleted under a write that is about to reference it.
   */
  public boolean lockTenant(String tenant) {
    return !em.createNativeQuery("SELECT 1 FROM tenants WHERE name = ?1 FOR KEY SHARE")
        .setParameter(1, tenant)
        .getResultList()
        .isEmpty();
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

  /** Adds the policy; false when it already existed (nothing changes then). */
  public boolean addPolicy(String tenant, PolicyRule rule) {
    int added =
        em.createNativeQuery(
                "INSERT INTO rbac_policies (tenant, subject, object, action) VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING")
            .setParameter(1, tenant)
            .setParameter(2, rule.subject())
            .setParameter(3, rule.object())
            .setParameter(4, rule.action())
            .executeUpdate();
    return added > 0;
  }

  public boolean removePolicy(String tenant, PolicyRule rule) {
    int removed =
        em.createNativeQuery(
                "DELETE FROM rbac_policies WHERE tenant = ?1 AND subject = ?2 AND object = ?3 AND action = ?4")
            .setParameter(1, tenant)
            .setParameter(2, rule.subject())
            .setParameter(3, rule.object())
            .setParameter(4, rule.action())
            .executeUpdate();
    return removed > 0;
  }

  public boolean addGrouping(String tenant, Grouping grouping) {
    int added =
        em.createNativeQuery(
                "INSERT INTO rbac_groupings (tenant, principal, role) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING")
            .setParameter(1, tenant)
            .setParameter(2, grouping.principal())
            .setParameter(3, grouping.role())
            .executeUpdate();
    return added > 0;
  }

  public boolean removeGrouping(String tenant, Grouping grouping) {
    int removed =
        em.createNativeQuery(
                "DELETE FROM rbac_groupings WHERE tenant = ?1 AND principal = ?2 AND role = ?3")
            .setParameter(1, tenant)
            .setParameter(2, grouping.principal())
            .setParameter(3, grouping.role())
            .executeUpdate();
    return removed > 0;
  }
}
