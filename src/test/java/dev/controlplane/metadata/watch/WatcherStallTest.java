package dev.controlplane.metadata.watch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.error.ErrorCode;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The stall cut-off ends watchers that stop reading, and only them. The window holds the newest
 * version alone, so a watcher from version 0 needs the log, and the hub's log pool never runs a
 * task: its threads are busy with other watchers' reads.
 */
class WatcherStallTest {

  private final TestHub node = new TestHub(new TestHub.Log(), TestHub.busy(), Duration.ZERO);
  private final TestHub.Sink sink = new TestHub.Sink();

  WatcherStallTest() {
    node.settings.window = 1;
    node.settings.stallTimeout = Duration.ofMillis(1);
    node.advanceTo(3);
    sink.ready = false;
  }

  @Test
  void aWatcherThatKeepsReadingIsNotCutOffWhileItsReadOfTheLogWaitsForAThread() throws Exception {
    Watcher watcher = blockedLongerThanTheStallTimeout();

    sink.ready = true; // the client read
    watcher.wake();
    Thread.sleep(10);
    node.housekeeping.cutOffStalled();

    assertThat(sink.sent).as("version 1 waits for the log pool").isEmpty();
    assertThat(watcher.blockedNanos()).isZero();
    assertThat(sink.closedWith).isNull();
  }

  @Test
  void aWatcherWhoseClientReadIsNotCutOffBeforeItsTransportThreadGetsToIt() throws Exception {
    Watcher watcher = blockedLongerThanTheStallTimeout();

    sink.ready = true; // the client read; the wake-up has not run yet
    node.housekeeping.cutOffStalled();

    assertThat(watcher.blockedNanos()).isZero();
    assertThat(sink.closedWith).isNull();
  }

  @Test
  void aWatcherThatStopsReadingWhileUpdatesWaitIsCutOff() throws Exception {
    Watcher watcher = blockedLongerThanTheStallTimeout();

    assertThat(watcher.blockedNanos()).isGreaterThan(Duration.ofMillis(1).toNanos());
    node.housekeeping.cutOffStalled();

    assertThat(sink.closedWith).isNotNull();
    assertThat(sink.closedWith.code()).isEqualTo(ErrorCode.RESOURCE_EXHAUSTED);
    assertThat(sink.closedWith).hasMessageContaining("resume from version 0");
  }

  /** A watcher from version 0 whose window has been full for longer than the stall timeout. */
  private Watcher blockedLongerThanTheStallTimeout() throws InterruptedException {
    Watcher watcher = (Watcher) node.hub.subscribe(0, sink);
    Thread.sleep(10);
    return watcher;
  }
}
