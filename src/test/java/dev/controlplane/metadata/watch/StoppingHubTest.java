package dev.controlplane.metadata.watch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.metadata.log.LogBounds;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A stop closes every watch first, whatever moment a watch was opened at. */
class StoppingHubTest {

  @Test
  void aWatchOpenedWhileTheWatchesAreClosedEndsLikeThem() throws Exception {
    CountDownLatch readingBounds = new CountDownLatch(1);
    CountDownLatch watchesClosed = new CountDownLatch(1);
    TestHub.Log log =
        new TestHub.Log() {
          @Override
          public LogBounds bounds() {
            // The database round trip of a new watch, during which the node begins to stop.
            readingBounds.countDown();
            await(watchesClosed);
            return super.bounds();
          }
        };
    TestHub node = new TestHub(log, TestHub.direct(), Duration.ofHours(1)).advanceTo(3);
    TestHub.Sink sink = new TestHub.Sink();

    CompletableFuture<Watch> opening =
        CompletableFuture.supplyAsync(() -> node.hub.subscribe(3, sink));
    await(readingBounds);
    node.hub.closeWatches();
    watchesClosed.countDown();
    Throwable failure = catchThrowable(() -> opening.get(10, TimeUnit.SECONDS));

    assertThat(failure)
        .as("the watch ends, as those already open did")
        .isInstanceOf(ExecutionException.class)
        .hasCauseInstanceOf(ControlPlaneException.class);
    ControlPlaneException refused = (ControlPlaneException) failure.getCause();
    assertThat(refused.code()).isEqualTo(ErrorCode.UNAVAILABLE);
    assertThat(refused).hasMessage("the server is shutting down; resume on another node");
    assertThat(node.hub.watcherCount()).isZero();
  }

  @Test
  void closingTheWatchesEndsThoseOpenTellingBrokersToResumeOnAnotherNode() {
    TestHub node = new TestHub(new TestHub.Log(), TestHub.direct(), Duration.ofHours(1));
    node.advanceTo(3);
    TestHub.Sink sink = new TestHub.Sink();
    node.hub.subscribe(3, sink);

    node.hub.closeWatches();

    assertThat(sink.closedWith.code()).isEqualTo(ErrorCode.UNAVAILABLE);
    assertThat(sink.closedWith).hasMessage("the server is shutting down; resume on another node");
    assertThat(node.hub.watcherCount()).isZero();
  }

  private static void await(CountDownLatch latch) {
    try {
      assertThat(latch.await(10, TimeUnit.SECONDS)).as("waited for the other thread").isTrue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
