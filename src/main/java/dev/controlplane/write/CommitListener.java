package dev.controlplane.write;

import dev.controlplane.metadata.model.MetadataUpdate;
import dev.controlplane.metadata.snapshot.MetadataImage;
import java.util.List;

/** Told on the pipeline thread, right after a batch committed, what it changed (the watch hub). */
public interface CommitListener {

  /** {@code updates} committed in version order; {@code image} is the image after the last. */
  void committed(List<MetadataUpdate> updates, MetadataImage image);
}
