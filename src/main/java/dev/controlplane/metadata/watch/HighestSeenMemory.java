package dev.controlplane.metadata.watch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.UUID;
import java.util.logging.Logger;

/**
 * The highest metadata version this node has read, kept on its local disk across restarts, with the
 * identity of the database it read it from ({@code cluster_state.database_id}).
 *
 * <p>A database restored from a backup while every node was stopped is behind versions brokers
 * hold, and no running node remembers them: the leader would give their numbers to other changes
 * unless an operator starts a new history first. With this memory, a node that read those versions
 * before its restart still knows it, and as leader starts the new history itself. The memory counts
 * only for the same database: a fresh database (another identity) starts from nothing.
 *
 * <p>One line, {@code <database id> <version>}, replaced atomically (write, then rename) at most
 * once a second and when the node stops. A file that cannot be read or written costs the
 * protection, not the node: it is logged and ignored. Thread safety: synchronized.
 */
final class HighestSeenMemory {

  private static final Logger LOG = Logger.getLogger(HighestSeenMemory.class.getName());

  private final Path file;
  private final UUID database;
  private long recalled;
  private long written = -1;
  private boolean failing;

  /** The memory in {@code file} of what this node read from {@code database}. */
  HighestSeenMemory(Path file, UUID database) {
    this.file = file;
    this.database = database;
  }

  /** The version remembered for this database; 0 when none is (or only for another database). */
  synchronized long recalled() {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.US_ASCII).strip();
    } catch (NoSuchFileException e) {
      return 0;
    } catch (IOException e) {
      LOG.warning("cannot read " + file + " (the highest version this node saw): " + e);
      return 0;
    }
    String[] parts = text.split(" ");
    try {
      if (parts.length != 2) {
        throw new IllegalArgumentException("not two fields");
      }
      if (UUID.fromString(parts[0]).equals(database)) {
        long version = Long.parseLong(parts[1]);
        written = version;
        recalled = Math.max(0, version);
        return recalled;
      }
      return 0;
    } catch (IllegalArgumentException e) {
      LOG.warning(file + " does not hold '<database id> <version>'; ignored: '" + text + "'");
      return 0;
    }
  }

  /**
   * Logs that the database is at {@code head}, behind the version recalled: it went back in time
   * while the node was stopped.
   */
  void warnAhead(long head) {
    LOG.warning(
        "this node read metadata version "
            + recalled
            + " of this database before it restarted, and the database is at version "
            + head
            + ": it lost committed versions (restored from a backup, or failed over to a standby"
            + " that had not received them). As leader this node starts a new history before it"
            + " writes; if another node leads and its log does not say 'Started a new history',"
            + " run SELECT controlplane_start_new_history() (docs/operations.md, \"Database"
            + " loss\")");
  }

  /** Keeps {@code version} for this database, unless that is what the file holds already. */
  synchronized void remember(long version) {
    if (version == written) {
      return;
    }
    try {
      Files.createDirectories(file.getParent());
      Path next = file.resolveSibling(file.getFileName() + ".next");
      Files.writeString(next, database + " " + version + "\n", StandardCharsets.US_ASCII);
      try {
        Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(next, file, StandardCopyOption.REPLACE_EXISTING);
      }
      written = version;
      if (failing) {
        failing = false;
        LOG.info("writing " + file + " works again");
      }
    } catch (IOException e) {
      if (!failing) {
        failing = true;
        LOG.warning(
            "cannot write "
                + file
                + " (the highest version this node saw, so that it can start a new history if"
                + " the database is restored from a backup): "
                + e);
      }
    }
  }
}
