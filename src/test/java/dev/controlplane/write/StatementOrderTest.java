package dev.controlplane.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class StatementOrderTest {

  private static final String STREAM = "INSERT INTO streams …";
  private static final String PLACEMENT = "INSERT INTO shard_placements …";
  private static final String DELETE_PLACEMENT = "DELETE FROM shard_placements …";
  private static final String NAMESPACE = "INSERT INTO namespaces …";
  private static final String POLICY = "INSERT INTO rbac_policies …";

  private static SqlStatement row(String sql, String scope) {
    return new SqlStatement(sql, ps -> {}, scope);
  }

  /** Each statement as "SQL@scope", in execution order. */
  private static List<String> order(SqlStatement... statements) {
    return StatementOrder.grouped(List.of(statements)).stream()
        .map(s -> s.sql() + "@" + s.scope())
        .toList();
  }

  @Test
  void createStreamWritesOfABatchBecomeOneRunOfStreamsAndOneOfPlacements() {
    assertEquals(
        List.of(
            STREAM + "@acme/ns/a",
            STREAM + "@acme/ns/b",
            STREAM + "@acme/ns/c",
            PLACEMENT + "@acme/ns/a",
            PLACEMENT + "@acme/ns/b",
            PLACEMENT + "@acme/ns/c"),
        order(
            row(STREAM, "acme/ns/a"),
            row(PLACEMENT, "acme/ns/a"),
            row(STREAM, "acme/ns/b"),
            row(PLACEMENT, "acme/ns/b"),
            row(STREAM, "acme/ns/c"),
            row(PLACEMENT, "acme/ns/c")));
  }

  @Test
  void aStatementNeverPassesOneOnTheSameResource() {
    // Create, delete and create again the placement of one stream: the order is the outcome.
    assertEquals(
        List.of(
            PLACEMENT + "@acme/ns/a", DELETE_PLACEMENT + "@acme/ns/a", PLACEMENT + "@acme/ns/a"),
        order(
            row(PLACEMENT, "acme/ns/a"),
            row(DELETE_PLACEMENT, "acme/ns/a"),
            row(PLACEMENT, "acme/ns/a")));
  }

  @Test
  void aChildNeverPassesItsParentNorAParentItsChild() {
    // A namespace row may not move before a stream inside it, nor a stream before its namespace.
    assertEquals(
        List.of(NAMESPACE + "@acme/x", STREAM + "@acme/ns/a", NAMESPACE + "@acme/ns"),
        order(row(NAMESPACE, "acme/x"), row(STREAM, "acme/ns/a"), row(NAMESPACE, "acme/ns")));
    assertEquals(
        List.of(STREAM + "@acme/ns/a", NAMESPACE + "@acme/ns", STREAM + "@acme/ns/b"),
        order(row(STREAM, "acme/ns/a"), row(NAMESPACE, "acme/ns"), row(STREAM, "acme/ns/b")));
  }

  @Test
  void nothingPassesASideRecordAndASideRecordPassesNothing() {
    assertEquals(
        List.of(STREAM + "@acme/ns/a", POLICY + "@null", STREAM + "@other/ns/b"),
        order(row(STREAM, "acme/ns/a"), row(POLICY, null), row(STREAM, "other/ns/b")));
    assertEquals(
        List.of(POLICY + "@null", STREAM + "@acme/ns/a", POLICY + "@null"),
        order(row(POLICY, null), row(STREAM, "acme/ns/a"), row(POLICY, null)));
  }

  @Test
  void unrelatedResourcesAndBrokersMayBePassed() {
    assertEquals(
        List.of(NAMESPACE + "@acme/ns", NAMESPACE + "@acme/other", STREAM + "@acme/ns/a"),
        order(row(NAMESPACE, "acme/ns"), row(STREAM, "acme/ns/a"), row(NAMESPACE, "acme/other")));
    assertTrue(StatementOrder.related("acme", "acme/ns/a"));
    assertTrue(StatementOrder.related("acme/ns/a", "acme/ns/a"));
    assertFalse(StatementOrder.related("acme/ns", "acme/nsx"));
    assertFalse(StatementOrder.related("acme", "acme2/ns"));
    assertFalse(StatementOrder.related("#broker/acme", "acme"));
  }
}
