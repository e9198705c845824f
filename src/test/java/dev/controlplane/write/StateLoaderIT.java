package dev.controlplane.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.LiveBrokers;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.TestDatabase;
import dev.controlplane.metadata.codec.ResourceCodec;
import dev.controlplane.metadata.model.Resource;
import dev.controlplane.metadata.model.ResourceKind;
import dev.controlplane.metadata.snapshot.MetadataImage;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A new leader's write state caught up from the image it holds and the change log is the state the
 * tables hold, against the real database the shared server writes.
 */
class StateLoaderIT {

  private static final ResourceCodec CODEC = new ResourceCodec();

  @BeforeAll
  static void server() throws Exception {
    SharedServer.ensureStarted();
  }

  @Test
  void anImageCaughtUpFromTheLogIsTheStateTheTablesHold() throws Exception {
    Http http = Http.shared();
    try (LiveBrokers brokers = new LiveBrokers("catch-up-b1");
        Connection c = TestDatabase.connect()) {
      assertThat(http.put("/v1/tenants/catch-up", Http.tenant("catch-up", "t")).status())
          .isIn(200, 201);
      assertThat(
              http.put(
                      "/v1/tenants/catch-up/namespaces/ns",
                      Http.namespace("catch-up", "ns", "before"))
                  .status())
          .isIn(200, 201);
      MetadataImage held = StateLoader.loadImage(c);

      for (int i = 0; i < 4; i++) {
        var created =
            http.put(
                "/v1/tenants/catch-up/namespaces/ns/streams/s" + i,
                Http.stream("catch-up", "ns", "s" + i, 2, 1));
        assertThat(created.status()).as(created.body()).isIn(200, 201);
      }
      assertThat(http.delete("/v1/tenants/catch-up/namespaces/ns/streams/s1").status())
          .isIn(200, 202, 204);
      assertThat(
              http.put(
                      "/v1/tenants/catch-up/namespaces/ns",
                      Http.namespace("catch-up", "ns", "after"))
                  .status())
          .isEqualTo(200);

      try (Connection writersPaused = pauseWriters()) {
        WriteState fromTables = StateLoader.load(c, 9);
        assertThat(fromTables.version()).isGreaterThan(held.version() + 5);
        assertThat(fromTables.deleting()).containsKey("catch-up/ns/s1");

        assertSameState(StateLoader.catchUp(c, 9, held, readStored()), fromTables);
        // Too new to be this database's (a restored backup): read from the tables.
        MetadataImage ahead = MetadataImage.of(fromTables.version() + 1, List.of());
        assertSameState(StateLoader.catchUp(c, 9, ahead, readStored()), fromTables);
        // A log row the codec cannot read: the tables, not a leader that cannot write.
        assertSameState(
            StateLoader.catchUp(
                c,
                9,
                held,
                json -> {
                  throw new IllegalStateException("unreadable");
                }),
            fromTables);
        // The empty image: the whole log, or the tables when the log is longer than the limit.
        assertSameState(StateLoader.catchUp(c, 9, MetadataImage.empty(), readStored()), fromTables);
      }
    }
  }

  private static void assertSameState(WriteState actual, WriteState expected) {
    assertThat(actual.term()).isEqualTo(expected.term());
    assertThat(actual.version()).isEqualTo(expected.version());
    for (ResourceKind kind : ResourceKind.values()) {
      assertThat(actual.image().map(kind)).as("%s", kind).isEqualTo(expected.image().map(kind));
    }
    assertThat(actual.deleting()).isEqualTo(expected.deleting());
    assertThat(actual.loads()).isEqualTo(expected.loads());
    assertThat(List.copyOf(actual.ranking().byLoad()))
        .isEqualTo(List.copyOf(expected.ranking().byLoad()));
  }

  private static Function<String, Resource> readStored() {
    return CODEC::readStored;
  }

  /**
   * Holds a share lock on {@code cluster_state} until closed: every batch's fencing update waits
   * for it, so the states compared are of one version while brokers of other tests keep changing.
   */
  private static Connection pauseWriters() throws Exception {
    Connection lock = TestDatabase.connect();
    lock.setAutoCommit(false);
    try (Statement s = lock.createStatement();
        ResultSet rs = s.executeQuery("SELECT 1 FROM cluster_state FOR SHARE")) {
      rs.next();
    }
    return lock;
  }
}
