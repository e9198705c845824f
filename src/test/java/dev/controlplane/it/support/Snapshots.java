package dev.controlplane.it.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.proto.v1.GetSnapshotRequest;
import dev.controlplane.proto.v1.GetSnapshotResponse;
import dev.controlplane.proto.v1.Metadata;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.Iterator;

/** Whole snapshots over gRPC, their chunks joined as the contract tells clients to. */
public final class Snapshots {

  /** A snapshot: its version and every chunk's lists concatenated in order. */
  public record Snapshot(long version, Metadata metadata) {}

  private Snapshots() {}

  /** The snapshot at {@code version}, 0 for the latest; fails unless its last chunk arrives. */
  public static Snapshot take(Grpc grpc, long version) {
    Iterator<GetSnapshotResponse> chunks =
        grpc.metadata().getSnapshot(GetSnapshotRequest.newBuilder().setVersion(version).build());
    Metadata.Builder metadata = Metadata.newBuilder();
    long at = -1;
    boolean last = false;
    while (chunks.hasNext()) {
      GetSnapshotResponse chunk = chunks.next();
      if (at >= 0) {
        assertThat(chunk.getVersion()).as("every chunk's version").isEqualTo(at);
      }
      at = chunk.getVersion();
      last = chunk.getLast();
      metadata.mergeFrom(chunk.getMetadata());
    }
    assertThat(last).as("the snapshot's last chunk arrived").isTrue();
    return new Snapshot(at, metadata.build());
  }

  /**
   * The snapshot at {@code version} from {@code node}, which may still be catching up to it (back
   * from a fault, or a follower behind the leader): asks again until {@code timeout}.
   */
  public static Snapshot takeOnceCaughtUp(TestCluster.Node node, long version, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      try (Grpc grpc = node.grpc()) {
        return take(grpc, version);
      } catch (StatusRuntimeException notYet) {
        if (System.nanoTime() > deadline) {
          throw notYet;
        }
        Thread.sleep(250);
      }
    }
  }

  /** The same resources in each list, in whatever order; {@code what} names the comparison. */
  public static void assertSameMetadata(Metadata actual, Metadata expected, String what) {
    assertThat(actual.getTenantsList())
        .as("tenants of %s", what)
        .containsExactlyInAnyOrderElementsOf(expected.getTenantsList());
    assertThat(actual.getNamespacesList())
        .as("namespaces of %s", what)
        .containsExactlyInAnyOrderElementsOf(expected.getNamespacesList());
    assertThat(actual.getStreamsList())
        .as("streams of %s", what)
        .containsExactlyInAnyOrderElementsOf(expected.getStreamsList());
    assertThat(actual.getPlacementsList())
        .as("placements of %s", what)
        .containsExactlyInAnyOrderElementsOf(expected.getPlacementsList());
    assertThat(actual.getBrokersList())
        .as("brokers of %s", what)
        .containsExactlyInAnyOrderElementsOf(expected.getBrokersList());
  }
}
