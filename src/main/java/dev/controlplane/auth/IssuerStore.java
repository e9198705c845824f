package dev.controlplane.auth;

import dev.controlplane.tx.Tx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The {@code idp_issuers} table. Audiences travel as newline-joined text (they cannot contain one).
 */
@ApplicationScoped
@Tx
public class IssuerStore {

  @jakarta.inject.Inject dev.controlplane.cluster.WriteGuard guard;

  private static final String COLUMNS =
      "issuer, array_to_string(audiences, E'\\n'), discovery_url, jwks_url, subject_claim,"
          + " groups_claim, groups_prefix";

  @PersistenceContext(unitName = "controlplane")
  EntityManager em;

  public List<IssuerRecord> list(String tenant) {
    return em
        .createNativeQuery(
            "SELECT " + COLUMNS + " FROM idp_issuers WHERE tenant = ?1 ORDER BY issuer")
        .setParameter(1, tenant)
        .getResultList()
        .stream()
        .map(r -> toRecord((Object[]) r))
        .toList();
  }

  public Optional<IssuerRecord> find(String tenant, String issuer) {
    List<?> rows =
        em.createNativeQuery(
                "SELECT " + COLUMNS + " FROM idp_issuers WHERE tenant = ?1 AND issuer = ?2")
            .setParameter(1, tenant)
            .setParameter(2, issuer)
            .getResultList();
    return rows.stream().findFirst().map(r -> toRecord((Object[]) r));
  }

  /**
   * Locks the tenant's row for the rest of the transaction, so that checks across the tenant's
   * issuers (group prefixes) cannot race another issuer write; false when the tenant does not
   * exist.
   */
  public boolean lockTenant(String tenant) {
    return !em.createNativeQuery("SELECT 1 FROM tenants WHERE name = ?1 FOR UPDATE")
        .setParameter(1, tenant)
        .getResultList()
        .isEmpty();
  }

  /** Creates or replaces; returns true when it was created. */
  public boolean upsert(String tenant, IssuerRecord r) {
    guard.requireLeader();
    boolean existed = find(tenant, r.issuer()).isPresent();
    em.createNativeQuery(
            "INSERT INTO idp_issuers (tenant, issuer, audiences, discovery_url, jwks_url, subject_claim, groups_claim, groups_prefix)"
                + " VALUES (?1, ?2, string_to_array(?3, E'\\n'), NULLIF(?4, ''), NULLIF(?5, ''), ?6, NULLIF(?7, ''), ?8)"
                + " ON CONFLICT (tenant, issuer) DO UPDATE SET audiences = excluded.audiences,"
                + " discovery_url = excluded.discovery_url, jwks_url = excluded.jwks_url,"
                + " subject_claim = excluded.subject_claim, groups_claim = excluded.groups_claim,"
                + " groups_prefix = excluded.groups_prefix, updated_at = now()")
        .setParameter(1, tenant)
        .setParameter(2, r.issuer())
        .setParameter(3, String.join("\n", r.audiences()))
        .setParameter(4, orEmpty(r.discoveryUrl()))
        .setParameter(5, orEmpty(r.jwksUrl()))
        .setParameter(6, r.subjectClaim())
        .setParameter(7, orEmpty(r.groupsClaim()))
        .setParameter(8, r.groupsPrefix())
        .executeUpdate();
    return !existed;
  }

  public boolean delete(String tenant, String issuer) {
    guard.requireLeader();
    return em.createNativeQuery("DELETE FROM idp_issuers WHERE tenant = ?1 AND issuer = ?2")
            .setParameter(1, tenant)
            .setParameter(2, issuer)
            .executeUpdate()
        > 0;
  }

  /** Null-free parameters: the SQL turns '' back into NULL (no type guessing for null binds). */
  private static String orEmpty(String s) {
    return s == null ? "" : s;
  }

  private static IssuerRecord toRecord(Object[] r) {
    return new IssuerRecord(
        (String) r[0],
        Arrays.asList(((String) r[1]).split("\n")),
        (String) r[2],
        (String) r[3],
        (String) r[4],
        (String) r[5],
        (String) r[6]);
  }
}
