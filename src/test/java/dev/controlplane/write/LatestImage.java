package dev.controlplane.write;

import dev.controlplane.metadata.model.MetadataUpdate;
import dev.controlplane.metadata.snapshot.MetadataImage;
import java.util.List;

/** A commit listener for tests that only holds the image it was handed last. */
class LatestImage implements CommitListener {

  private volatile MetadataImage image = MetadataImage.empty();
  private volatile long seen;

  /** As if this node had read up to {@code version} before: a database behind it lost versions. */
  LatestImage seen(long version) {
    seen = version;
    return this;
  }

  @Override
  public void committing(long lastVersion) {}

  @Override
  public void committed(List<MetadataUpdate> updates, MetadataImage after) {
    image = after;
    seen = Math.max(seen, after.version());
  }

  @Override
  public void restarted(MetadataImage image) {
    this.image = image;
    seen = Math.max(seen, image.version());
  }

  @Override
  public void deliver() {}

  @Override
  public MetadataImage image() {
    return image;
  }

  @Override
  public long highestSeen() {
    return seen;
  }
}
