package dev.controlplane.write;

import dev.controlplane.metadata.model.MetadataUpdate;
import dev.controlplane.metadata.snapshot.MetadataImage;
import java.util.List;

/**
 * Told on the pipeline thread, right before a batch commits, up to which version, and right after
 * it committed, what it changed (the watch hub).
 */
public interface CommitListener {

  /**
   * A batch with versioned updates up to {@code lastVersion} is about to commit; {@link #committed}
   * follows when it did. The database's commit notification may arrive in between: this tells the
   * listener it need not read the log for those versions. 0 when the announced batch did not commit
   * after all (or its outcome is unknown).
   */
  void committing(long lastVersion);

  /** {@code updates} committed in version order; {@code image} is the image after the last. */
  void committed(List<MetadataUpdate> updates, MetadataImage image);

  /**
   * The image this node holds now, never newer than the committed log: a new leader's write state
   * starts from it and replays only the log after it.
   */
  MetadataImage image();
}
