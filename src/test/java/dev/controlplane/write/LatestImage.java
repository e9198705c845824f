package dev.controlplane.write;

import dev.controlplane.metadata.model.MetadataUpdate;
import dev.controlplane.metadata.snapshot.MetadataImage;
import java.util.List;

/** A commit listener for tests that only holds the image it was handed last. */
class LatestImage implements CommitListener {

  private volatile MetadataImage image = MetadataImage.empty();

  @Override
  public void committing(long lastVersion) {}

  @Override
  public void committed(List<MetadataUpdate> updates, MetadataImage after) {
    image = after;
  }

  @Override
  public void deliver() {}

  @Override
  public MetadataImage image() {
    return image;
  }
}
