package dev.controlplane.metadata.log;

import dev.controlplane.metadata.codec.ResourceCodec;
import dev.controlplane.metadata.model.MetadataUpdate;
import dev.controlplane.metadata.model.UpdateType;
import dev.controlplane.tx.Tx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;
import java.util.function.Consumer;

/**
 * Reads the metadata change log ({@code metadata_updates}) and its bounds. It is written only by
 * the leader's write pipeline ({@link dev.controlplane.write.WritePipeline}), which assigns the
 * versions under the {@code cluster_state} row lock.
 *
 * <h2>Versions</h2>
 *
 * Every batch takes the row lock and the next versions before it commits, so versions are gapless
 * and become visible in order; no sequence is involved (a sequence would leave gaps on rollback).
 *
 * <h2>Delivery</h2>
 *
 * A batch with updates issues one {@code pg_notify(CHANNEL)}, which PostgreSQL delivers to every
 * node on commit, with the batch's last version as its payload; the leader hands its updates to its
 * own watch hub directly and skips the notification of a version it has. Listeners only learn that
 * something changed up to a version; they read the updates by version from the table.
 */
@ApplicationScoped
public class ChangeLog {

  public static final String CHANNEL = "controlplane_metadata";

  @PersistenceContext(unitName = "controlplane")
  EntityManager em;

  @Inject ResourceCodec codec;

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

  /** The database's identity ({@code cluster_state.database_id}, migration V11). */
  @Tx
  public java.util.UUID databaseId() {
    return java.util.UUID.fromString(
        (String)
            em.createNativeQuery("SELECT database_id::text FROM cluster_state WHERE id = 1")
                .getSingleResult());
  }

  /** Up to {@code limit} updates with versions above {@code after}, in version order. */
  @Tx
  public List<MetadataUpdate> readAfter(long after, int limit) {
    return em
        .createQuery(
            "from MetadataUpdateEntity where version > :after order by version",
            MetadataUpdateEntity.class)
        .setParameter("after", after)
        .setMaxResults(limit)
        .getResultList()
        .stream()
        .map(this::toUpdate)
        .toList();
  }

  /**
   * Hands the updates in {@code (after, upTo]} to {@code consumer}, newest first: what to undo to
   * go back to {@code after}. Streamed in batches, so going back 100,000 versions does not hold
   * them all.
   */
  @Tx
  public void forEachNewestFirst(long after, long upTo, Consumer<MetadataUpdate> consumer) {
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

  private MetadataUpdate toUpdate(MetadataUpdateEntity e) {
    return new MetadataUpdate(
        e.version,
        UpdateType.valueOf(e.updateType),
        codec.readStored(e.payload),
        e.previous == null ? null : codec.readStored(e.previous));
  }
}
