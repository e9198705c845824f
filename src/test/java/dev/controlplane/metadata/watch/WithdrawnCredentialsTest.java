package dev.controlplane.metadata.watch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.error.ErrorCode;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.Test;

/** Watches whose credentials are withdrawn end as unauthenticated; the others stay open. */
class WithdrawnCredentialsTest {

  /** A sink whose credentials the test withdraws. */
  static final class Withdrawable extends TestHub.Sink {
    volatile Optional<String> withdrawn = Optional.empty();

    @Override
    public Optional<String> credentialsWithdrawn() {
      return withdrawn;
    }
  }

  private final TestHub node = new TestHub(new TestHub.Log(), TestHub.direct(), Duration.ZERO);

  @Test
  void onlyTheWatchesWhoseCredentialsWereWithdrawnEndAndTheyEndUnauthenticated() {
    node.advanceTo(2);
    Withdrawable revoked = new Withdrawable();
    Withdrawable kept = new Withdrawable();
    TestHub.Sink token = new TestHub.Sink();
    node.hub.subscribe(2, revoked);
    node.hub.subscribe(2, kept);
    node.hub.subscribe(2, token);

    node.hub.closeWithdrawn();
    assertThat(revoked.closedWith).isNull();

    revoked.withdrawn = Optional.of("the client certificate is no longer accepted: revoked");
    node.hub.closeWithdrawn();

    assertThat(revoked.closedWith).isNotNull();
    assertThat(revoked.closedWith.code()).isEqualTo(ErrorCode.INVALID_TOKEN);
    assertThat(revoked.closedWith)
        .hasMessage("the client certificate is no longer accepted: revoked");
    assertThat(kept.closedWith).isNull();
    assertThat(token.closedWith).isNull();
  }

  /** The hub's ticker ends such a watch by itself: a certificate may expire with no file change. */
  @Test
  void theHousekeepingTickEndsAWatchWhoseCredentialsExpiredWithoutAnyChangeOfFiles()
      throws Exception {
    node.settings.progressInterval = Duration.ofMillis(400); // a tick every 100 ms
    node.advanceTo(2);
    Withdrawable expiring = new Withdrawable();
    node.hub.subscribe(2, expiring);
    ScheduledExecutorService ticker = java.util.concurrent.Executors.newScheduledThreadPool(1);
    try {
      node.housekeeping.schedule(ticker);
      expiring.withdrawn = Optional.of("expired");
      long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (expiring.closedWith == null && System.nanoTime() < end) {
        Thread.sleep(20);
      }
      assertThat(expiring.closedWith).isNotNull();
      assertThat(expiring.closedWith.code()).isEqualTo(ErrorCode.INVALID_TOKEN);
    } finally {
      ticker.shutdownNow();
    }
  }
}
