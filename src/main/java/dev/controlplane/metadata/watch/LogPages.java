package dev.controlplane.metadata.watch;

import dev.controlplane.metadata.model.MetadataUpdate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The change log as watchers behind the hub's window read it: in pages of {@link #pageSize}
 * versions that every watcher shares. After a leader change or a restart, hundreds of brokers
 * resume from about the same version; each used to read its own 500 updates from the table and hold
 * them while its transport was busy. Now the table is read once per page, the most recently read
 * pages stay here, and a watcher holds a page only while it is sending from it.
 *
 * <p>A committed version's update never changes, so a cached page stays true; a page read while its
 * end was not committed yet is read again when a watcher wants a version past it. A page the
 * retention trimmed into is not cached: it no longer starts where its page starts.
 */
final class LogPages {

  /** Reads up to {@code limit} updates above {@code after}, in version order. */
  interface Reader {
    List<MetadataUpdate> readAfter(long after, int limit);
  }

  private final Reader reader;
  private final int pageSize;
  private final Map<Long, List<MetadataUpdate>> recent;
  private final Runnable onRead;

  LogPages(Reader reader, int pageSize, int pagesKept, Runnable onRead) {
    this.reader = reader;
    this.pageSize = pageSize;
    this.onRead = onRead;
    this.recent =
        new LinkedHashMap<>(pagesKept * 2, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<Long, List<MetadataUpdate>> eldest) {
            return size() > pagesKept;
          }
        };
  }

  /**
   * Updates in version order that include {@code version} when the log still holds it; otherwise
   * what the log holds from there on (empty, or starting after {@code version}).
   */
  List<MetadataUpdate> containing(long version) {
    long page = (version - 1) / pageSize;
    List<MetadataUpdate> cached;
    synchronized (recent) {
      cached = recent.get(page);
    }
    if (find(cached, version) != null) {
      return cached;
    }
    long start = page * pageSize;
    List<MetadataUpdate> read = reader.readAfter(start, pageSize);
    onRead.run();
    if (!read.isEmpty() && read.get(0).version() == start + 1) {
      synchronized (recent) {
        List<MetadataUpdate> other = recent.get(page);
        if (other == null || other.size() < read.size()) {
          recent.put(page, read);
        }
      }
    }
    return read;
  }

  /** Forgets every page: the hub reloaded its image and the log may not reach back to them. */
  void clear() {
    synchronized (recent) {
      recent.clear();
    }
  }

  int pagesKept() {
    synchronized (recent) {
      return recent.size();
    }
  }

  /** The update with {@code version} in {@code page}, or null when the page does not hold it. */
  static MetadataUpdate find(List<MetadataUpdate> page, long version) {
    if (page == null || page.isEmpty()) {
      return null;
    }
    long index = version - page.get(0).version();
    if (index < 0 || index >= page.size()) {
      return null;
    }
    MetadataUpdate update = page.get((int) index);
    return update.version() == version ? update : null;
  }
}
