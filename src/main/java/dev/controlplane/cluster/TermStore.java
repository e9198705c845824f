package dev.controlplane.cluster;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;

/** The fencing token in PostgreSQL: {@code cluster_state.leader_term}. */
@ApplicationScoped
public class TermStore {

  @PersistenceContext(unitName = "controlplane")
  EntityManager em;

  /**
   * Records a new term for {@code nodeId}, one above every term recorded before, and returns it.
   * From the moment this commits, writes by holders of older terms fail.
   */
  @Transactional
  public long claimNextTerm(String nodeId) {
    Number term =
        (Number)
            em.createNativeQuery(
                    "UPDATE cluster_state SET leader_term = leader_term + 1, leader_node = ?1, leader_since = now()"
                        + " WHERE id = 1 RETURNING leader_term")
                .setParameter(1, nodeId)
                .getSingleResult();
    return term.longValue();
  }
}
