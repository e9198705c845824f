package dev.controlplane.metadata.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.metadata.log.ChangeLog;
import dev.controlplane.metadata.log.LogBounds;
import dev.controlplane.metadata.model.MetadataUpdate;
import dev.controlplane.metadata.model.ResourceKind;
import dev.controlplane.metadata.model.Tenant;
import dev.controlplane.metadata.model.UpdateType;
import dev.controlplane.metadata.watch.WatchHub;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * A snapshot at a past version, rebuilt from a node at version 3 whose window holds nothing: every
 * update to undo comes from the change log, which retains versions 1 to 3.
 */
class PastSnapshotTest {

  private static final List<MetadataUpdate> UPDATES =
      LongStream.rangeClosed(1, 3)
          .mapToObj(
              v ->
                  new MetadataUpdate(
                      v, UpdateType.CREATE, new Tenant("t" + v, "", null, null, v), null))
          .toList();

  private final Log log = new Log();
  private final SnapshotService snapshots = new SnapshotService();

  PastSnapshotTest() {
    snapshots.hub = new Hub(imageAt(3));
    snapshots.changeLog = log;
  }

  @Test
  void aPastVersionIsTheImageAsItWasThen() {
    MetadataImage past = snapshots.snapshotAt(1);

    assertThat(past.version()).isEqualTo(1);
    assertThat(past.ofKind(ResourceKind.TENANT)).containsExactly(UPDATES.get(0).resource());
  }

  @Test
  void aStoredUpdateTheNodeCannotReadIsAFaultOfTheServerNotAnOutOfRangeVersion() {
    log.newestFirst =
        (after, consumer) -> {
          throw new IllegalStateException(
              "the stored Tenant of version 3 is not one this build reads (spec.tier: is not a"
                  + " known field)");
        };

    Throwable failure = catchThrowable(() -> snapshots.snapshotAt(1));

    assertThat(failure)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("is not one this build reads");
  }

  @Test
  void aLogThatDoesNotMatchTheImageIsAFaultOfTheServer() {
    log.newestFirst = (after, consumer) -> consumer.accept(UPDATES.get(1)); // version 2, not 3

    Throwable failure = catchThrowable(() -> snapshots.snapshotAt(1));

    assertThat(failure).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void aVersionTheRetentionTrimmedWhileTheSnapshotWasBuiltIsOutOfRange() {
    log.newestFirst =
        (after, consumer) -> {
          consumer.accept(UPDATES.get(2));
          log.retainedFrom = 3; // versions 1 and 2 trimmed: the read ends early
        };

    Throwable failure = catchThrowable(() -> snapshots.snapshotAt(1));

    assertThat(failure).isInstanceOf(ControlPlaneException.class);
    assertThat(((ControlPlaneException) failure).code()).isEqualTo(ErrorCode.OUT_OF_RANGE);
    assertThat(failure).hasMessageContaining("oldest servable version 2");
  }

  @Test
  void aLogThatLostTheNodesLastVersionInAFailoverIsUnavailableNotAFault() {
    log.head = 2; // version 3, which the node read, went with the old primary
    log.newestFirst = (after, consumer) -> consumer.accept(UPDATES.get(1));

    Throwable failure = catchThrowable(() -> snapshots.snapshotAt(1));

    assertThat(failure).isInstanceOf(ControlPlaneException.class);
    assertThat(((ControlPlaneException) failure).code()).isEqualTo(ErrorCode.UNAVAILABLE);
    assertThat(failure)
        .hasMessageContaining("up to version 3 but the change log now ends at version 2");
  }

  private static MetadataImage imageAt(long version) {
    MetadataImage image = MetadataImage.empty();
    for (MetadataUpdate u : UPDATES.subList(0, (int) version)) {
      image = image.replay(u);
    }
    return image;
  }

  /** The hub of a node whose window holds no update. */
  private static final class Hub extends WatchHub {
    private final MetadataImage image;

    Hub(MetadataImage image) {
      this.image = image;
    }

    @Override
    public MetadataImage image() {
      return image;
    }

    @Override
    public MetadataUpdate fromWindow(long version) {
      return null;
    }
  }

  /** Versions 1 to 3 retained; read newest first as {@link #newestFirst} says, by default all. */
  private static final class Log extends ChangeLog {
    interface Reading {
      void read(long after, Consumer<MetadataUpdate> consumer);
    }

    volatile long retainedFrom = 1;
    volatile long head = 3;
    Reading newestFirst =
        (after, consumer) -> {
          for (int i = UPDATES.size() - 1; i >= 0 && UPDATES.get(i).version() > after; i--) {
            consumer.accept(UPDATES.get(i));
          }
        };

    @Override
    public LogBounds bounds() {
      return new LogBounds(head, retainedFrom);
    }

    @Override
    public void forEachNewestFirst(long after, long upTo, Consumer<MetadataUpdate> consumer) {
      newestFirst.read(after, consumer);
    }
  }
}
