package dev.controlplane.write;

import dev.controlplane.metadata.kind.Kind;
import dev.controlplane.metadata.kind.Kinds;
import dev.controlplane.metadata.model.MetadataUpdate;
import dev.controlplane.metadata.model.Resource;
import dev.controlplane.metadata.model.ResourceKind;
import dev.controlplane.metadata.model.Stream;
import dev.controlplane.metadata.model.UpdateType;
import dev.controlplane.metadata.snapshot.MetadataImage;
import dev.controlplane.write.WriteState.DeletedStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.pcollections.TreePMap;

/**
 * Loads the current state in one repeatable-read transaction, so what is read and the version it is
 * at agree exactly while writers commit: from the tables at start and when a follower's image fell
 * behind the retained log; when this node becomes leader, from the image it already holds and the
 * change log after it ({@link #catchUp}), the tables only when that image is too far behind.
 */
public final class StateLoader {

  private static final Logger LOG = Logger.getLogger(StateLoader.class.getName());

  private StateLoader() {}

  /** The image brokers see, at the version the tables are at. */
  public static MetadataImage loadImage(Connection c) throws SQLException {
    Tables t = read(c);
    return MetadataImage.of(t.version(), t.current());
  }

  /** The leader's write state for fencing term {@code term}. */
  public static WriteState load(Connection c, long term) throws SQLException {
    Tables t = read(c);
    return WriteState.of(
        term, MetadataImage.of(t.version(), t.current()), TreePMap.fromSortedMap(t.deleting()));
  }

  /**
   * Most versions a new leader replays from the change log onto the image it holds; further behind,
   * it reads the tables instead. Reading the tables of 100,000 streams of 16 shards kept the
   * pipeline thread busy for about 13 s on this project's 2-core machine (2026-11-27), while a
   * version costs one or two JSON documents.
   */
  static final long MAX_CATCH_UP = 10_000;

  /**
   * The leader's write state for fencing term {@code term}, starting from {@code held} (this node's
   * image, at most as new as the tables): the change log after it is replayed onto it, and only the
   * streams being deleted, which no image holds, are read from their table. When {@code held} is
   * newer than the tables (a restored database), older than the retained log, or more than {@link
   * #MAX_CATCH_UP} versions behind, the state is read from the tables as {@link #load} does.
   */
  public static WriteState catchUp(
      Connection c, long term, MetadataImage held, Function<String, Resource> readStored)
      throws SQLException {
    WriteState caught;
    try {
      caught = catchUpInSnapshot(c, term, held, readStored);
    } catch (RuntimeException unreadable) {
      // A row the codec cannot read, or a gap: the tables are the current state either way.
      LOG.log(Level.WARNING, "cannot replay the change log onto this node's image", unreadable);
      caught = null;
    }
    return caught != null ? caught : load(c, term);
  }

  /** The caught-up state, or null when {@code held} is too new or too far behind. */
  private static WriteState catchUpInSnapshot(
      Connection c, long term, MetadataImage held, Function<String, Resource> readStored)
      throws SQLException {
    return inSnapshot(
        c,
        s -> {
          long version;
          long retainedFrom;
          try (ResultSet rs =
              s.executeQuery("SELECT metadata_version, retained_from FROM cluster_state")) {
            rs.next();
            version = rs.getLong(1);
            retainedFrom = rs.getLong(2);
          }
          if (held.version() > version
              || held.version() + 1 < retainedFrom
              || version - held.version() > MAX_CATCH_UP) {
            return null;
          }
          MetadataImage image = replayLog(c, held, version, readStored);
          return WriteState.of(term, image, TreePMap.fromSortedMap(deletedStreams(c)));
        });
  }

  private static MetadataImage replayLog(
      Connection c, MetadataImage held, long upTo, Function<String, Resource> readStored)
      throws SQLException {
    MetadataImage image = held;
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT version, update_type, payload, previous FROM metadata_updates"
                + " WHERE version > ? AND version <= ? ORDER BY version")) {
      ps.setFetchSize(500);
      ps.setLong(1, held.version());
      ps.setLong(2, upTo);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          String previous = rs.getString(4);
          image =
              image.replay(
                  new MetadataUpdate(
                      rs.getLong(1),
                      UpdateType.valueOf(rs.getString(2)),
                      readStored.apply(rs.getString(3)),
                      previous == null ? null : readStored.apply(previous)));
        }
      }
    }
    if (image.version() != upTo) {
      throw new IllegalStateException(
          "the change log ends at version " + image.version() + ", not at " + upTo);
    }
    return image;
  }

  private static TreeMap<String, DeletedStream> deletedStreams(Connection c) throws SQLException {
    TreeMap<String, DeletedStream> deleting = new TreeMap<>();
    Kind<?> streams = Kinds.of(ResourceKind.STREAM);
    try (PreparedStatement ps =
        c.prepareStatement(streams.selectAllSql() + " WHERE state = 'deleting'")) {
      ps.setFetchSize(2000);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          addDeleted((Stream) streams.fromRow(rs), rs, deleting);
        }
      }
    }
    return deleting;
  }

  /** The rows of every kind and the version they are at; deleted streams apart. */
  private record Tables(
      long version, List<Resource> current, TreeMap<String, DeletedStream> deleting) {}

  private static Tables read(Connection c) throws SQLException {
    return inSnapshot(
        c,
        s -> {
          long version;
          try (ResultSet rs = s.executeQuery("SELECT metadata_version FROM cluster_state")) {
            rs.next();
            version = rs.getLong(1);
          }
          List<Resource> current = new ArrayList<>();
          TreeMap<String, DeletedStream> deleting = new TreeMap<>();
          for (ResourceKind kind : ResourceKind.values()) {
            readKind(c, Kinds.of(kind), current, deleting);
          }
          return new Tables(version, current, deleting);
        });
  }

  private interface SnapshotRead<T> {
    T read(Statement s) throws SQLException;
  }

  /** {@code read} in one read-only repeatable-read transaction: every query sees one commit. */
  private static <T> T inSnapshot(Connection c, SnapshotRead<T> read) throws SQLException {
    boolean autoCommit = c.getAutoCommit();
    c.setAutoCommit(false);
    try (Statement s = c.createStatement()) {
      s.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
      T result = read.read(s);
      c.commit();
      return result;
    } catch (SQLException | RuntimeException e) {
      c.rollback();
      throw e;
    } finally {
      c.setAutoCommit(autoCommit);
    }
  }

  private static void readKind(
      Connection c, Kind<?> kind, List<Resource> out, TreeMap<String, DeletedStream> deleting)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(kind.selectAllSql())) {
      ps.setFetchSize(2000);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          Resource r = kind.fromRow(rs);
          if (r instanceof Stream s && s.state() == Stream.State.DELETING) {
            addDeleted(s, rs, deleting);
          } else {
            out.add(r);
          }
        }
      }
    }
  }

  private static void addDeleted(Stream s, ResultSet rs, TreeMap<String, DeletedStream> deleting)
      throws SQLException {
    Timestamp purge = rs.getTimestamp("purge_after");
    deleting.put(s.key(), new DeletedStream(s, purge == null ? null : purge.toInstant()));
  }
}
