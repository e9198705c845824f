package dev.controlplane.write;

import dev.controlplane.audit.Actor;
import dev.controlplane.audit.AuditEntries;
import dev.controlplane.audit.AuditEntry;
import dev.controlplane.audit.AuditRecord;
import dev.controlplane.metadata.codec.ResourceCodec;
import dev.controlplane.metadata.kind.Kind;
import dev.controlplane.metadata.kind.Kinds;
import dev.controlplane.metadata.model.Broker;
import dev.controlplane.metadata.model.MetadataUpdate;
import dev.controlplane.metadata.model.Resource;
import dev.controlplane.metadata.model.ShardPlacement;
import dev.controlplane.metadata.model.Stream;
import dev.controlplane.metadata.model.StreamRef;
import dev.controlplane.metadata.model.Tenant;
import dev.controlplane.metadata.model.UpdateType;
import dev.controlplane.metadata.snapshot.MetadataImage;
import dev.controlplane.write.WriteState.DeletedStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What one {@link Operation} sees and changes: the state as the earlier operations of its batch
 * left it, and the records it adds. Versioned changes ({@link #put}, {@link #delete}) take the next
 * metadata versions, change the state and add the row and the log entry; {@link #sql} adds any
 * other row change ("side records": RBAC rows, issuers, keys, heartbeats) to the same transaction,
 * in order. Nothing reaches the batch unless the operation returns normally; a refusal discards all
 * of it.
 *
 * <p>Audit: an operation that changed anything gets its audit records ({@link #audit}, or one
 * derived from its versioned changes) added by the pipeline ({@link #seal}) to the same transaction
 * as its own rows, so they commit exactly when the change does. An operation that changed nothing
 * leaves none, whatever it described.
 *
 * <p>Confined to the pipeline thread.
 */
public final class WriteContext {

  /** A read of the database inside the batch transaction. */
  @FunctionalInterface
  public interface Query<T> {
    T run(Connection connection) throws SQLException;
  }

  private final BatchTransaction batch;
  private final ResourceCodec codec;
  private WriteState state;
  final List<SqlStatement> statements = new ArrayList<>();
  final List<MetadataUpdate> updates = new ArrayList<>();
  final List<SqlStatement> logRows = new ArrayList<>();
  final List<AuditEntry> auditEntries = new ArrayList<>();
  private final List<AuditEntry> besideEntries = new ArrayList<>();
  final List<AuditRecord> auditRecords = new ArrayList<>();
  private boolean routine;

  /** Whether the operation changed rows that nodes cache per tenant (see {@link #AUTH_TABLES}). */
  boolean authChanged;

  /** Tables whose rows every node caches per tenant ({@code cache.TenantChanges}). */
  private static final Pattern AUTH_TABLES =
      Pattern.compile("\\b(rbac_policies|rbac_groupings|idp_issuers|signing_keys)\\b");

  WriteContext(BatchTransaction batch, ResourceCodec codec, WriteState state) {
    this.batch = batch;
    this.codec = codec;
    this.state = state;
  }

  public WriteState state() {
    return state;
  }

  public MetadataImage image() {
    return state.image();
  }

  /** The metadata version after the changes made so far. */
  public long version() {
    return state.version();
  }

  /** Creates the resource, or replaces {@code previous}. Returns it with its new version. */
  public <R extends Resource> R put(R resource, Resource previous) {
    return apply(previous == null ? UpdateType.CREATE : UpdateType.UPDATE, resource, previous);
  }

  /** Deletes {@code current}; the update carries it as it was. */
  public <R extends Resource> R delete(R current) {
    return apply(UpdateType.DELETE, current, current);
  }

  /**
   * Deletes {@code previous} for brokers while its row stays as {@code tombstone}, waiting for its
   * purge at {@code purgeAfter} (a deleted stream: its name stays taken, a restore can bring it
   * back).
   */
  public Stream deleteKeeping(
      Stream tombstone, Stream previous, Instant deletedAt, Instant purgeAfter) {
    Stream versioned = apply(UpdateType.DELETE, tombstone, previous);
    state =
        state.withDeleting(
            state.deleting().plus(versioned.key(), new DeletedStream(versioned, purgeAfter)));
    sql(
        "UPDATE streams SET deleted_at = ?, purge_after = ? WHERE tenant = ? AND namespace = ?"
            + " AND name = ?",
        deletedAt,
        purgeAfter,
        versioned.tenant(),
        versioned.namespace(),
        versioned.name());
    return versioned;
  }

  /** A deleted stream comes back (its CREATE is a {@link #put}): no purge any more. */
  public void cancelPurge(StreamRef ref) {
    state = state.withDeleting(state.deleting().minus(ref.key()));
    sql(
        "UPDATE streams SET deleted_at = NULL, purge_after = NULL WHERE tenant = ? AND namespace = ?"
            + " AND name = ?",
        ref.tenant(),
        ref.namespace(),
        ref.stream());
  }

  /** Removes a deleted stream's row for good; brokers saw its DELETE when it was deleted. */
  public void purge(StreamRef ref) {
    state = state.withDeleting(state.deleting().minus(ref.key()));
    sql(
        "DELETE FROM streams WHERE tenant = ? AND namespace = ? AND name = ?",
        ref.tenant(),
        ref.namespace(),
        ref.stream());
  }

  /** Adds a row change to the batch transaction (a side record), after the ones before it. */
  public void sql(String sql, Object... params) {
    statements.add(SqlStatement.of(sql, params));
    authChanged |= AUTH_TABLES.matcher(sql).find();
  }

  /**
   * Describes what this operation does for the audit log, one entry per thing done (a key rotation
   * duty describes each tenant's key). Recorded only if the operation changes something.
   */
  public void audit(AuditEntry entry) {
    auditEntries.add(entry);
  }

  /**
   * Records a side effect beside the operation's own record: a new tenant's first signing key is
   * audited as created, and the tenant's creation still gets the record its change gives. Unlike
   * {@link #audit}, it does not stand in for that record.
   */
  public void auditBeside(AuditEntry entry) {
    besideEntries.add(entry);
  }

  /**
   * Marks this operation's side records as routine bookkeeping (heartbeats, change-log trimming):
   * no audit record unless it also describes one or changes versioned metadata. Kubernetes' audit
   * policies drop node heartbeats for the same reason: they would drown everything else.
   */
  public void routine() {
    routine = true;
  }

  /**
   * Turns what the operation did into audit records, committed with its own changes; called by the
   * pipeline once the operation returned and will commit.
   */
  void seal(Actor actor, String node, Instant at) {
    if (statements.isEmpty() && updates.isEmpty()) {
      return;
    }
    List<AuditEntry> entries = new ArrayList<>(auditEntries);
    if (entries.isEmpty() && !updates.isEmpty()) {
      entries.add(AuditEntries.of(updates));
    } else if (entries.isEmpty() && besideEntries.isEmpty() && !routine) {
      entries.add(AuditEntry.of("write", "write", "write", null));
    }
    entries.addAll(besideEntries);
    Long version = updates.isEmpty() ? null : state.version();
    for (AuditEntry entry : entries) {
      AuditRecord record =
          new AuditRecord(at, entry, AuditRecord.SUCCESS, null, actor, node, version);
      auditRecords.add(record);
    }
  }

  /**
   * Reads the database inside the batch transaction, after every change of the earlier operations
   * of the batch (so it sees them); for what the in-memory state does not hold. Read before adding
   * this operation's own changes: those are not written yet.
   */
  public <T> T query(Query<T> query) {
    try {
      return batch.read(query);
    } catch (SQLException e) {
      throw new BatchFailure(e);
    }
  }

  @SuppressWarnings("unchecked")
  private <R extends Resource> R apply(UpdateType type, R resource, Resource previous) {
    long version = state.version() + 1;
    R versioned = (R) resource.withVersion(version);
    MetadataUpdate update = new MetadataUpdate(version, type, versioned, previous);
    Broker brokerBefore =
        versioned instanceof Broker b ? state.image().broker(b.name()).orElse(null) : null;
    state = state.withImage(state.image().replay(update));
    Kind<?> kind = Kinds.of(versioned);
    boolean rowGoes = type == UpdateType.DELETE && !(versioned instanceof Stream);
    if (versioned instanceof Broker b) {
      state = state.withBrokerChange(brokerBefore, rowGoes ? null : b);
    }
    // A tenant's row takes its RBAC rows, issuers and keys with it (ON DELETE CASCADE).
    authChanged |= rowGoes && versioned instanceof Tenant;
    String scope = StatementOrder.scopeOf(versioned);
    if (rowGoes) {
      statements.add(
          new SqlStatement(kind.deleteSql(), ps -> kind.bindKeyOf(ps, versioned), scope));
    } else {
      statements.add(
          new SqlStatement(kind.upsertSql(), ps -> kind.bindRowOf(ps, versioned), scope));
    }
    if (versioned instanceof ShardPlacement p) {
      ShardPlacement before = previous instanceof ShardPlacement q ? q : null;
      ShardPlacement after = rowGoes ? null : p;
      state =
          state.withLoadChange(
              before == null ? List.of() : before.placements(),
              after == null ? List.of() : after.placements());
    }
    updates.add(update);
    logRows.add(logRow(update));
    return versioned;
  }

  private SqlStatement logRow(MetadataUpdate update) {
    Resource r = update.resource();
    String payload = codec.toJson(r);
    String previous = update.previous() == null ? null : codec.toJson(update.previous());
    return SqlStatement.of(
        "INSERT INTO metadata_updates (version, update_type, kind, resource_key, payload,"
            + " previous, term) VALUES (?, ?, ?, ?, ?::jsonb, ?::jsonb, ?)",
        update.version(),
        update.type().name(),
        r.kind().kindName(),
        r.key(),
        payload,
        previous,
        state.term());
  }
}
