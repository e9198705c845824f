package dev.controlplane.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class WatchedSinceTest {

  private static final long SECOND = 1_000_000_000L;
  private final WatchedSince watched = new WatchedSince(Duration.ofSeconds(5));
  private final AtomicInteger asked = new AtomicInteger();

  /** The database's clock: 100 s after the epoch plus one second per time it is asked. */
  private final Supplier<Instant> database =
      () -> Instant.ofEpochSecond(100 + asked.getAndIncrement());

  /** A check that begins at {@code at} seconds, succeeds, and ends at the same time. */
  private Instant checkAt(long term, long at) {
    Instant since = watched.start(term, at * SECOND, database);
    watched.checked(at * SECOND);
    return since;
  }

  @Test
  void checksOneSecondApartKeepTheWatchOfTheTerm() {
    Instant first = checkAt(7, 0);
    for (long t = 1; t < 60; t++) {
      assertThat(checkAt(7, t)).isEqualTo(first);
    }
    assertThat(asked).hasValue(1);
  }

  @Test
  void aNewTermStartsTheWatchAgain() {
    Instant first = checkAt(7, 0);
    assertThat(checkAt(8, 1)).isAfter(first);
  }

  /**
   * Checks that failed (the database did not answer) or were skipped (the node did not lead) for
   * longer than a heartbeat interval: nobody could record heartbeats meanwhile.
   */
  @Test
  void aBreakLongerThanOneHeartbeatIntervalStartsTheWatchAgain() {
    Instant first = checkAt(7, 0);
    assertThat(checkAt(7, 5)).as("a break of exactly one interval").isEqualTo(first);
    watched.start(7, 6 * SECOND, database); // this check fails: checked() is not called
    Instant afterFailures = watched.start(7, 11 * SECOND + 1, database);
    assertThat(afterFailures).isAfter(first);
    watched.checked(11 * SECOND + 1);
    assertThat(checkAt(7, 12)).isEqualTo(afterFailures);
  }
}
