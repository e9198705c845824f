package dev.controlplane.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.controlplane.audit.Actor;
import dev.controlplane.audit.AuditEntry;
import dev.controlplane.audit.AuditLog;
import dev.controlplane.audit.AuditRecord;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.metadata.codec.ResourceCodec;
import dev.controlplane.metadata.log.WriteMode;
import dev.controlplane.metadata.model.Tenant;
import dev.controlplane.metadata.snapshot.MetadataImage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.pcollections.TreePMap;

/**
 * The pipeline's audit step, on a batch that is never sent to a database: what reaches the batch
 * transaction is exactly what would commit.
 */
class PipelineAuditTest {

  private static final Actor ALICE = new Actor("a1b2", Actor.USER, "192.0.2.7", "curl/8");
  private final BatchTransaction tx = new BatchTransaction(null, 1, 0);
  private final List<Object> outcomes = new ArrayList<>();

  private static WriteState empty() {
    return WriteState.of(1, MetadataImage.empty(), TreePMap.empty());
  }

  private static Pending<Object> pending(Operation<Object> op, WriteMode mode, Actor actor) {
    return new Pending<>(op, mode, new CompletableFuture<>(), actor);
  }

  private static Operation<Object> createTenant(String name) {
    return write -> write.put(new Tenant(name, "", null, null, 0), null);
  }

  private WriteState run(List<Pending<?>> batch) {
    return BatchRunner.applyAll(batch, tx, new ResourceCodec(), empty(), "cp1", outcomes);
  }

  private long auditRows() {
    return tx.auditRows().stream().filter(s -> s.sql().equals(AuditLog.INSERT)).count();
  }

  private static List<String> sqlOf(List<SqlStatement> statements) {
    return statements.stream().map(SqlStatement::sql).toList();
  }

  @Test
  void aBatchOfWritesKeepsItsRowsTogetherAndItsAuditRowsTogether() {
    run(
        List.of(
            pending(createTenant("a"), WriteMode.COMMIT, ALICE),
            pending(createTenant("b"), WriteMode.COMMIT, ALICE),
            pending(createTenant("c"), WriteMode.COMMIT, ALICE)));

    // Consecutive statements with the same SQL go to the database as one JDBC batch: three
    // tenant rows are one round trip and their three audit rows another, not six.
    List<String> rows = sqlOf(tx.pending());
    assertEquals(3, rows.size());
    assertEquals(1, rows.stream().distinct().count());
    assertEquals(List.of(AuditLog.INSERT, AuditLog.INSERT, AuditLog.INSERT), sqlOf(tx.auditRows()));
  }

  @Test
  void aRefusedOperationInABatchAddsNoRecordAndACommittedOneAddsExactlyOne() {
    Operation<Object> refused =
        write -> {
          write.put(new Tenant("doomed", "", null, null, 0), null);
          write.audit(AuditEntry.of("metadata", "tenant.create", "create", "doomed"));
          throw ControlPlaneException.conflict("no");
        };
    run(
        List.of(
            pending(refused, WriteMode.COMMIT, ALICE),
            pending(createTenant("acme"), WriteMode.COMMIT, ALICE)));

    assertInstanceOf(ControlPlaneException.class, outcomes.get(0));
    assertEquals(1, auditRows());
    assertEquals(1, tx.audited().size());
    AuditRecord record = tx.audited().get(0);
    assertEquals("tenant.create", record.entry().operation());
    assertEquals("acme", record.entry().tenant());
    assertEquals("tenant:acme", record.entry().resource());
    assertEquals(AuditRecord.SUCCESS, record.result());
  }

  @Test
  void theRecordCarriesTheSubmittersActorAndTheVersionItsChangeTakes() {
    WriteState after =
        run(
            List.of(
                pending(createTenant("one"), WriteMode.COMMIT, Actor.SERVICE),
                pending(createTenant("two"), WriteMode.COMMIT, ALICE)));

    AuditRecord second = tx.audited().get(1);
    assertEquals(ALICE, second.actor());
    assertEquals("cp1", second.node());
    assertEquals(after.version(), second.version());
    assertEquals(Actor.SERVICE, tx.audited().get(0).actor());
    assertEquals(1L, tx.audited().get(0).version());
  }

  @Test
  void aDryRunAddsNoRecord() {
    run(List.of(pending(createTenant("acme"), WriteMode.DRY_RUN, ALICE)));

    assertEquals(0, auditRows());
    assertTrue(tx.audited().isEmpty());
  }

  @Test
  void anOperationThatChangesNothingAddsNoRecordEvenIfItDescribedOne() {
    run(
        List.of(
            pending(
                write -> {
                  write.audit(AuditEntry.of("rbac", "rbac.policy.add", "add", "acme"));
                  return false;
                },
                WriteMode.COMMIT,
                ALICE)));

    assertEquals(0, auditRows());
  }

  @Test
  void aSideRecordWriteIsRecordedAsItDescribesItselfWithoutAVersion() {
    run(
        List.of(
            pending(
                write -> {
                  write.sql("INSERT INTO rbac_policies VALUES (?)", "x");
                  write.audit(
                      AuditEntry.of("rbac", "rbac.policy.add", "add", "acme").on("tenant:acme"));
                  return true;
                },
                WriteMode.COMMIT,
                ALICE)));

    assertEquals(1, auditRows());
    AuditRecord record = tx.audited().get(0);
    assertEquals("rbac.policy.add", record.entry().operation());
    assertNull(record.version());
    // The audit row goes with the change it describes, in the same transaction, but apart from
    // the operations' own rows.
    assertEquals(List.of("INSERT INTO rbac_policies VALUES (?)"), sqlOf(tx.pending()));
  }

  @Test
  void routineBookkeepingLeavesNoRecord() {
    run(
        List.of(
            pending(
                write -> {
                  write.routine();
                  write.sql("UPDATE broker_heartbeats SET at = now() WHERE broker = ?", "b1");
                  return null;
                },
                WriteMode.COMMIT,
                Actor.SERVICE)));

    assertEquals(0, auditRows());
  }
}
