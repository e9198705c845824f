package dev.controlplane.auth;

import dev.controlplane.tx.Tx;
import dev.controlplane.write.WriteContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The {@code idp_issuers} table: reads (JPA) for validation and listing, and the write pipeline's
 * statements. Audiences travel as newline-joined text (they cannot contain one).
 */
@ApplicationScoped
@Tx
public class IssuerStore {

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

  private static final String UPSERT =
      "INSERT INTO idp_issuers (tenant, issuer, audiences, discovery_url, jwks_url, subject_claim,"
          + " groups_claim, groups_prefix) VALUES (?, ?, string_to_array(?, E'\\n'), NULLIF(?, ''),"
          + " NULLIF(?, ''), ?, NULLIF(?, ''), ?) ON CONFLICT (tenant, issuer) DO UPDATE SET"
          + " audiences = excluded.audiences, discovery_url = excluded.discovery_url,"
          + " jwks_url = excluded.jwks_url, subject_claim = excluded.subject_claim,"
          + " groups_claim = excluded.groups_claim, groups_prefix = excluded.groups_prefix,"
          + " updated_at = now()";

  /** Creates or replaces the issuer in the operation's batch. */
  public static void upsert(WriteContext write, String tenant, IssuerRecord r) {
    write.sql(
        UPSERT,
        tenant,
        r.issuer(),
        String.join("\n", r.audiences()),
        orEmpty(r.discoveryUrl()),
        orEmpty(r.jwksUrl()),
        r.subjectClaim(),
        orEmpty(r.groupsClaim()),
        r.groupsPrefix());
  }

  static void delete(WriteContext write, String tenant, String issuer) {
    write.sql("DELETE FROM idp_issuers WHERE tenant = ? AND issuer = ?", tenant, issuer);
  }

  /** The tenant's issuers as the write pipeline's batch sees them. */
  static List<IssuerRecord> list(WriteContext write, String tenant) {
    return write.query(
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT " + COLUMNS + " FROM idp_issuers WHERE tenant = ? ORDER BY issuer")) {
            ps.setString(1, tenant);
            List<IssuerRecord> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                Object[] row = new Object[7];
                for (int i = 0; i < 7; i++) {
                  row[i] = rs.getString(i + 1);
                }
                out.add(toRecord(row));
              }
            }
            return out;
          }
        });
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
