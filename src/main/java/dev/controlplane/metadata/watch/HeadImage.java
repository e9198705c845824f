package dev.controlplane.metadata.watch;

import dev.controlplane.metadata.model.MetadataUpdate;
import dev.controlplane.metadata.snapshot.MetadataImage;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.IntSupplier;

/**
 * The image at a hub's head, the window of the most recent updates that led to it, and the highest
 * version any image it held had. Both ways a head advances (this node's pipeline handing over a
 * committed batch, the tailer's reads of the log) go through here under one lock, and only to the
 * next version, so the window never has a gap and an update arriving both ways counts once.
 */
final class HeadImage {

  private final ConcurrentSkipListMap<Long, MetadataUpdate> window = new ConcurrentSkipListMap<>();
  private final IntSupplier windowSize;
  private final Runnable onReplace;
  private final Object advance = new Object();
  private volatile MetadataImage image = MetadataImage.empty();
  private volatile long highestSeen;

  /**
   * Keeps at most {@code windowSize} updates; {@code onReplace} runs whenever the image is replaced
   * rather than advanced (what was read of the log before then no longer leads to it).
   */
  HeadImage(IntSupplier windowSize, Runnable onReplace) {
    this.windowSize = windowSize;
    this.onReplace = onReplace;
  }

  MetadataImage image() {
    return image;
  }

  long version() {
    return image.version();
  }

  /** The highest version of any image held, or recalled; it only ever grows. */
  long highestSeen() {
    return highestSeen;
  }

  /** Raises the highest version seen to {@code version}, when higher; whether it was. */
  boolean recall(long version) {
    synchronized (advance) {
      if (version <= highestSeen) {
        return false;
      }
      highestSeen = version;
      return true;
    }
  }

  /**
   * Takes a committed batch and the image after it when the batch starts right after the head;
   * whether it did. One that does not was read from the log already, or leaves a gap to read.
   */
  boolean takeCommitted(List<MetadataUpdate> updates, MetadataImage after) {
    synchronized (advance) {
      if (updates.get(0).version() != version() + 1) {
        return false;
      }
      updates.forEach(u -> window.put(u.version(), u));
      hold(after);
      trimWindow();
      return true;
    }
  }

  /** Replays updates read from the log onto the image; those not next in line are skipped. */
  void append(List<MetadataUpdate> batch) {
    synchronized (advance) {
      MetadataImage next = image;
      for (MetadataUpdate update : batch) {
        if (update.version() != next.version() + 1) {
          continue;
        }
        window.put(update.version(), update);
        next = next.replay(update);
      }
      hold(next);
      trimWindow();
    }
  }

  MetadataUpdate fromWindow(long version) {
    return window.get(version);
  }

  /** {@code with} in place of the image held, without the window of the one before. */
  void replace(MetadataImage with) {
    synchronized (advance) {
      replaceHeld(with);
    }
  }

  /**
   * {@code with} in place of {@code held}, unless another image took its place meanwhile; whether
   * it did.
   */
  boolean replaceIfStill(MetadataImage held, MetadataImage with) {
    synchronized (advance) {
      if (image != held) {
        return false;
      }
      replaceHeld(with);
      return true;
    }
  }

  private void replaceHeld(MetadataImage with) {
    window.clear();
    onReplace.run();
    hold(with);
  }

  private void hold(MetadataImage next) {
    image = next;
    if (next.version() > highestSeen) {
      highestSeen = next.version();
    }
  }

  private void trimWindow() {
    while (window.size() > windowSize.getAsInt()) {
      window.pollFirstEntry();
    }
  }
}
