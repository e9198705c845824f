package dev.controlplane.write;

import dev.controlplane.metadata.model.MetadataUpdate;
import dev.controlplane.metadata.snapshot.MetadataImage;
import java.util.List;

/**
 * Told on the pipeline thread, right before a batch commits, up to which version, right after it
 * committed, what it changed, and once its callers were answered, to deliver it (the watch hub).
 */
public interface CommitListener {

  /**
   * A batch with versioned updates up to {@code lastVersion} is about to commit; {@link #committed}
   * follows when it did. The database's commit notification may arrive in between: this tells the
   * listener it need not read the log for those versions. 0 when the announced batch did not commit
   * after all (or its outcome is unknown).
   */
  void committing(long lastVersion);

  /**
   * {@code updates} committed in version order; {@code image} is the image after the last. Reads on
   * this node see them from now on; their callers are answered next, then {@link #deliver}.
   */
  void committed(List<MetadataUpdate> updates, MetadataImage image);

  /**
   * A new history of versions starts at {@code image}, with nothing of the old one to deliver
   * ({@code NewHistory}): hold it in place of the image held, so that the batches after it follow
   * at once.
   */
  void restarted(MetadataImage image);

  /**
   * The callers of the batch last {@link #committed} have their answers: send its updates to the
   * watchers. Apart from {@link #committed} so that a writer's answer never waits behind the
   * deliveries to every watcher, which would make a write slower the more watchers a node has.
   */
  void deliver();

  /**
   * The image this node holds now, never newer than the committed log: a new leader's write state
   * starts from it and replays only the log after it.
   */
  MetadataImage image();

  /**
   * The highest version this node has read. Above the database's head only when the database lost
   * versions this node read (restored from a backup, or failed over to a standby that had not
   * received them): a leader then starts a new history before it writes ({@code NewHistory}).
   */
  long highestSeen();
}
