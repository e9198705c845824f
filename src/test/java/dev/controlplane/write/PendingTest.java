package dev.controlplane.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.audit.Actor;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.metadata.log.WriteMode;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The claim between the pipeline and a caller who stops waiting: exactly one of them wins, so a
 * caller told that nothing was written is never contradicted by a later commit.
 */
class PendingTest {

  private static final Duration LIMIT = Duration.ofMillis(100);
  private static final Actor OPERATOR = new Actor("operator", Actor.USER, "127.0.0.1", "test");

  private static Pending<Object> pending() {
    return new Pending<>(write -> null, WriteMode.COMMIT, new CompletableFuture<>(), OPERATOR);
  }

  @Test
  void anAbandonedOperationIsNotTakenIntoABatch() {
    Pending<Object> waiting = pending();
    Pending<Object> abandoned = pending();
    Pending<Object> last = pending();

    assertThat(abandoned.abandon()).isTrue();

    assertThat(Pending.taken(List.of(waiting, abandoned, last))).containsExactly(waiting, last);
  }

  @Test
  void anOperationTakenIntoABatchCannotBeAbandoned() {
    Pending<Object> taken = pending();

    assertThat(Pending.taken(List.of(taken))).containsExactly(taken);

    assertThat(taken.abandon()).isFalse();
    assertThat(taken.take()).isFalse();
  }

  @Test
  void aCallerWhoseWriteNeverStartedIsToldNothingWasWrittenAndThePipelineSkipsIt() {
    Pending<Object> queued = pending();

    queued.limitWait(LIMIT);

    assertThat(message(queued)).contains("nothing was written");
    assertThat(Pending.taken(List.of(queued))).isEmpty();
  }

  @Test
  void aCallerWhoseWriteStartedButDidNotFinishIsToldItsOutcomeIsUnknown() {
    Pending<Object> running = pending();
    running.limitWait(LIMIT);
    assertThat(Pending.taken(List.of(running))).containsExactly(running);

    assertThat(message(running)).contains("may or may not be stored");
  }

  @Test
  void aCallerAnsweredInTimeGetsTheOutcomeAndNoLaterError() throws Exception {
    Pending<Object> answered = pending();
    answered.limitWait(LIMIT);
    assertThat(Pending.taken(List.of(answered))).containsExactly(answered);

    answered.complete("committed");
    Thread.sleep(3 * LIMIT.toMillis());

    assertThat(answered.future()).isCompletedWithValue("committed");
  }

  /** The caller's error once its wait ran out (well within ten times the limits). */
  private static String message(Pending<Object> pending) {
    Throwable error =
        pending
            .future()
            .handle((outcome, e) -> e)
            .orTimeout(10 * 2 * LIMIT.toMillis(), TimeUnit.MILLISECONDS)
            .join();
    assertThat(error).isInstanceOf(ControlPlaneException.class);
    assertThat(((ControlPlaneException) error).code()).isEqualTo(ErrorCode.UNAVAILABLE);
    return error.getMessage();
  }
}
