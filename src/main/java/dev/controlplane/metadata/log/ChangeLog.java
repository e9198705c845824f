package dev.controlplane.metadata.log;

import dev.controlplane.cluster.WriteGuard;
import dev.controlplane.error.LeaderHint;
import dev.controlplane.metadata.codec.ResourceCodec;
import dev.controlplane.metadata.model.MetadataUpdate;
import dev.controlplane.metadata.model.Resource;
import dev.controlplane.metadata.model.Stream;
import dev.controlplane.metadata.model.UpdateType;
import dev.controlplane.metadata.store.ResourceStore;
import dev.controlplane.tx.IntendedRollback;
import dev.controlplane.tx.Tx;
import jakarta.annotation.Resource.AuthenticationType;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.List;

/**
 * The metadata change log.
 *
 * <h2>Versions</h2>
 *
 * {@link #begin()} locks the one {@code cluster_state} row, so write transactions run one after
 * another: each takes the next versions and commits before the next one can take any. Versions are
 * therefore gapless and become visible in order; no sequence is involved (a sequence would leave
 * gaps on rollback).
 *
 * <h2>Fencing</h2>
 *
 * Under the same lock, {@link #begin()} checks that this node's term is the recorded one. A node
 * that lost leadership, even one that was paused and does not know it yet, fails here.
 *
 * <h2>Delivery</h2>
 *
 * The transaction issues {@code pg_notify(CHANNEL)}, which PostgreSQL delivers to every node on
 * commit, and registers a local after-commit signal. Listeners only learn that something changed;
 * they read the updates by version from the table.
 */
@ApplicationScoped
public class ChangeLog {

  public static final String CHANNEL = "controlplane_metadata";

  @PersistenceContext(unitName = "controlplane")
  EntityManager em;

  @Inject WriteGuard guard;
  @Inject ResourceStore store;
  @Inject ResourceCodec codec;
  @Inject CommitSignal commitSignal;

  @jakarta.annotation.Resource(authenticationType = AuthenticationType.CONTAINER)
  TransactionSynchronizationRegistry transactions;

  /** Starts a versioned write in the caller's transaction. */
  @Tx(Tx.Type.MANDATORY)
  public VersionedWrite begin() {
    return begin(WriteMode.COMMIT);
  }

  /**
   * Starts a versioned write that commits, or, as a dry run, ends in {@link
   * VersionedWrite#finish}'s rollback. A dry run takes the same lock and passes the same fencing
   * check: it answers what the leader would do now.
   */
  @Tx(Tx.Type.MANDATORY)
  public VersionedWrite begin(WriteMode mode) {
    long term = guard.currentTerm();
    ClusterStateEntity state =
        em.find(ClusterStateEntity.class, (short) 1, LockModeType.PESSIMISTIC_WRITE);
    if (state.leaderTerm != term) {
      throw guard.stale(
          term,
          state.leaderTerm,
          state.leaderNode == null
              ? null
              : new LeaderHint(state.leaderNode, state.leaderHttp, state.leaderGrpc));
    }
    em.createNativeQuery("SELECT pg_notify('" + CHANNEL + "', '')").getSingleResult();
    transactions.registerInterposedSynchronization(new SignalOnCommit(commitSignal));
    return new VersionedWrite(this, state, term, mode);
  }

  /**
   * Ends a dry run: flushes, so the database's own constraints judge the changes too, and marks the
   * transaction to roll back, so nothing commits, no update is delivered and the versions taken are
   * given back.
   */
  void rollBackDryRun() {
    em.flush();
    IntendedRollback.request(transactions);
  }

  void persist(MetadataUpdate update, long term) {
    Resource resource = update.resource();
    if (update.type() != UpdateType.DELETE) {
      store.save(resource);
    } else if (resource instanceof Stream s && s.state() == Stream.State.DELETING) {
      store.save(s);
    } else {
      store.remove(resource);
    }
    MetadataUpdateEntity row = new MetadataUpdateEntity();
    row.version = update.version();
    row.updateType = update.type().name();
    row.kind = resource.kind().kindName();
    row.resourceKey = resource.key();
    row.payload = codec.toJson(resource);
    row.previous = update.previous() == null ? null : codec.toJson(update.previous());
    row.term = term;
    em.persist(row);
  }

  /** The head version and the oldest retained one, as committed now. */
  @Tx
  public LogBounds bounds() {
    Object[] row =
        (Object[])
            em.createNativeQuery(
                    "SELECT metadata_version, retained_from FROM cluster_state WHERE id = 1")
                .getSingleResult();
    return new LogBounds(((Number) row[0]).longValue(), ((Number) row[1]).longValue());
  }

  /** Up to {@code limit} updates with versions above {@code after}, in version order. */
  @Tx
  public List<MetadataUpdate> readAfter(long after, int limit) {
    return em.createQuery(
            "from MetadataUpdateEntity where version > :after order by version",
            MetadataUpdateEntity.class)
        .setParameter("after", after)
        .setMaxResults(limit)
        .getResultStream()
        .map(this::toUpdate)
        .toList();
  }

  /**
   * Hands the updates in {@code (after, upTo]} to {@code consumer}, newest first: what to undo to
   * go back to {@code after}. Streamed in batches, so going back 100,000 versions does not hold
   * them all.
   */
  @Tx(Tx.Type.MANDATORY)
  public void forEachNewestFirst(
      long after, long upTo, java.util.function.Consumer<MetadataUpdate> consumer) {
    try (var rows =
        em.createQuery(
                "from MetadataUpdateEntity where version > :after and version <= :upTo order by version desc",
                MetadataUpdateEntity.class)
            .setParameter("after", after)
            .setParameter("upTo", upTo)
            .setHint("org.hibernate.fetchSize", 500)
            .setHint("org.hibernate.readOnly", true)
            .getResultStream()) {
      rows.forEach(
          row -> {
            consumer.accept(toUpdate(row));
            em.detach(row);
          });
    }
  }

  /**
   * Deletes history no longer needed: keeps at least {@code minVersions} versions and every update
   * younger than {@code minAgeMillis}. Returns the new oldest retained version.
   */
  @Tx
  public long trim(long minVersions, long minAgeMillis) {
    ClusterStateEntity state =
        em.find(ClusterStateEntity.class, (short) 1, LockModeType.PESSIMISTIC_WRITE);
    long byCount = state.metadataVersion - minVersions + 1;
    Number oldestYoung =
        (Number)
            em.createNativeQuery(
                    "SELECT coalesce(min(version), ?1) FROM metadata_updates"
                        + " WHERE committed_at > now() - make_interval(secs => ?2)")
                .setParameter(1, state.metadataVersion + 1)
                .setParameter(2, minAgeMillis / 1000.0)
                .getSingleResult();
    long newFrom = Math.min(byCount, oldestYoung.longValue());
    if (newFrom <= state.retainedFrom) {
      return state.retainedFrom;
    }
    em.createQuery("delete from MetadataUpdateEntity where version < :from")
        .setParameter("from", newFrom)
        .executeUpdate();
    state.retainedFrom = newFrom;
    return newFrom;
  }

  private MetadataUpdate toUpdate(MetadataUpdateEntity e) {
    return new MetadataUpdate(
        e.version,
        UpdateType.valueOf(e.updateType),
        codec.readStored(e.payload),
        e.previous == null ? null : codec.readStored(e.previous));
  }

  /** Wakes this node's watch hub as soon as the transaction has committed. */
  private record SignalOnCommit(CommitSignal signal) implements Synchronization {
    @Override
    public void beforeCompletion() {}

    @Override
    public void afterCompletion(int status) {
      if (status == Status.STATUS_COMMITTED) {
        signal.committed();
      }
    }
  }
}
