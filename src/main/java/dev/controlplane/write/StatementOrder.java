package dev.controlplane.write;

import dev.controlplane.metadata.model.Broker;
import dev.controlplane.metadata.model.Resource;
import java.util.ArrayList;
import java.util.List;

/**
 * Orders a batch's row changes so that statements with the same SQL are consecutive where that
 * cannot change the outcome, because each run of consecutive statements with the same SQL is one
 * JDBC batch, one round trip. A batch of CreateStream writes alternates stream and placement rows:
 * in submission order that is two round trips per write, grouped it is two per batch.
 *
 * <p>A statement moves back to join the last earlier statement with its SQL only past statements on
 * unrelated resources: not the same one, not one above or below it (a tenant and its namespaces, a
 * stream and its placement, which foreign keys tie together), and never past a side record, whose
 * effects are not known here. Statements that touch the same resource therefore keep their order,
 * and so do parents and children.
 */
final class StatementOrder {

  private StatementOrder() {}

  /** The scope of a resource's row: its path, brokers apart from tenants' paths. */
  static String scopeOf(Resource resource) {
    // '#' is not allowed in resource names, so a broker never shares a path with a tenant.
    return resource instanceof Broker ? "#broker/" + resource.key() : resource.key();
  }

  /** The statements, same-SQL runs joined where that is safe; otherwise in their order. */
  static List<SqlStatement> grouped(List<SqlStatement> statements) {
    List<List<SqlStatement>> runs = new ArrayList<>();
    for (SqlStatement s : statements) {
      List<SqlStatement> target = null;
      for (int r = runs.size() - 1; r >= 0; r--) {
        List<SqlStatement> run = runs.get(r);
        if (run.get(0).sql().equals(s.sql())) {
          target = run;
          break;
        }
        if (run.stream().anyMatch(other -> related(other.scope(), s.scope()))) {
          break;
        }
      }
      if (target == null) {
        target = new ArrayList<>();
        runs.add(target);
      }
      target.add(s);
    }
    List<SqlStatement> out = new ArrayList<>(statements.size());
    runs.forEach(out::addAll);
    return out;
  }

  /** Whether two scopes may depend on each other: unknown, the same, or one inside the other. */
  static boolean related(String a, String b) {
    if (a == null || b == null) {
      return true;
    }
    return a.equals(b) || a.startsWith(b + "/") || b.startsWith(a + "/");
  }
}
