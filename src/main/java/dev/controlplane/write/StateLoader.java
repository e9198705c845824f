package dev.controlplane.write;

import dev.controlplane.metadata.kind.Kind;
import dev.controlplane.metadata.kind.Kinds;
import dev.controlplane.metadata.model.Resource;
import dev.controlplane.metadata.model.ResourceKind;
import dev.controlplane.metadata.model.Stream;
import dev.controlplane.metadata.snapshot.MetadataImage;
import dev.controlplane.write.WriteState.DeletedStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.pcollections.TreePMap;

/**
 * Loads the current state from the tables in one repeatable-read transaction, so the rows and the
 * version they are at agree exactly while writers commit: at start, and when this node becomes
 * leader (the leader's write state) or its image fell behind the retained log (a follower).
 */
public final class StateLoader {

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

  /** The rows of every kind and the version they are at; deleted streams apart. */
  private record Tables(
      long version, List<Resource> current, TreeMap<String, DeletedStream> deleting) {}

  private static Tables read(Connection c) throws SQLException {
    boolean autoCommit = c.getAutoCommit();
    c.setAutoCommit(false);
    try (var s = c.createStatement()) {
      s.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
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
      c.commit();
      return new Tables(version, current, deleting);
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
            Timestamp purge = rs.getTimestamp("purge_after");
            deleting.put(s.key(), new DeletedStream(s, purge == null ? null : purge.toInstant()));
          } else {
            out.add(r);
          }
        }
      }
    }
  }
}
