package dev.controlplane.metadata.watch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A node that cannot read the change log, as when a newer build wrote an entry this one cannot
 * decode, never tells its watchers they are current, and soon sends them to another node.
 */
class UnreadableLogTest {

  private static final IllegalStateException NEWER_BUILD =
      new IllegalStateException(
          "the stored Namespace of version 4 is not one this build reads (spec.tier: is not a"
              + " known field); every node of a cluster must run the same build");

  private final TestHub.Sink sink = new TestHub.Sink();

  @Test
  void anIdleWatcherIsToldItIsCurrentWhileTheNodeReadsTheLog() {
    TestHub node = node(Duration.ofHours(1));
    Watcher watcher = (Watcher) node.hub.subscribe(3, sink);

    assertThat(node.tailer.readOnce()).isTrue();
    watcher.requestProgress();

    assertThat(sink.progress).containsExactly(3L);
  }

  @Test
  void noProgressNoticeIsSentWhileTheNodeCannotReadTheLog() {
    TestHub node = node(Duration.ofHours(1));
    Watcher watcher = (Watcher) node.hub.subscribe(3, sink);
    node.log.head = 4;
    node.log.failure = NEWER_BUILD;

    assertThat(node.tailer.readOnce()).isFalse();
    watcher.requestProgress();

    assertThat(sink.progress).as("version 3 is not current: 4 was committed").isEmpty();

    node.log.failure = null;
    assertThat(node.tailer.readOnce()).isTrue();
    watcher.requestProgress();

    assertThat(sink.sent).containsExactly(4L);
    assertThat(sink.progress).containsExactly(4L);
  }

  @Test
  void watchesOnANodeThatCannotReadTheLogAreClosedToResumeOnAnotherNode() throws Exception {
    TestHub node = node(Duration.ZERO);
    node.hub.subscribe(3, sink);
    node.log.failure = NEWER_BUILD;

    node.tailer.readOnce();
    Thread.sleep(10); // longer than the bound, zero here
    node.housekeeping.closeIfLogUnreadable();

    assertThat(sink.closedWith).isNotNull();
    assertThat(sink.closedWith.code()).isEqualTo(ErrorCode.UNAVAILABLE);
    assertThat(sink.closedWith)
        .hasMessage("this node cannot read the change log; resume on another node");
    assertThat(node.hub.watcherCount()).isZero();
    Throwable refused = catchThrowable(() -> node.hub.subscribe(3, new TestHub.Sink()));
    assertThat(refused)
        .isInstanceOf(ControlPlaneException.class)
        .hasMessage("this node cannot read the change log; resume on another node");
    assertThat(((ControlPlaneException) refused).code()).isEqualTo(ErrorCode.UNAVAILABLE);
  }

  @Test
  void aFailureShorterThanTheBoundLeavesTheWatchesOpen() {
    TestHub node = node(Duration.ofHours(1));
    node.hub.subscribe(3, sink);
    node.log.failure = NEWER_BUILD;

    node.tailer.readOnce();
    node.housekeeping.closeIfLogUnreadable();

    assertThat(sink.closedWith).isNull();
    assertThat(node.hub.watcherCount()).isOne();
  }

  private static TestHub node(Duration unreadableAfter) {
    return new TestHub(new TestHub.Log(), TestHub.direct(), unreadableAfter).advanceTo(3);
  }
}
