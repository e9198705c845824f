package dev.controlplane.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class HeldTermTest {

  private final HeldTerm held = new HeldTerm("cp1", Duration.ofSeconds(3), Duration.ofSeconds(1));

  @Test
  void aClaimThatCommitsAfterTheNodeStoppedLeadingIsNotTaken() {
    assertThat(held.take(7, 3, System.nanoTime(), () -> false)).isFalse();
    assertThat(held.held()).isZero();
    assertThat(held.needsClaim(3)).isTrue();
  }

  @Test
  void aTakenTermLeadsOnlyOnceTheMonitorConfirmsIt() {
    assertThat(held.take(7, 3, System.nanoTime(), () -> true)).isTrue();
    assertThat(held.held()).isEqualTo(7);
    assertThat(held.needsClaim(3)).isFalse();
    assertThat(held.needsClaim(4)).as("a later Raft term needs its own claim").isTrue();
    assertThat(held.leadsNow()).isFalse();
    held.confirmed();
    assertThat(held.leadsNow()).isTrue();
  }

  @Test
  void aLeaseThatWasNotRenewedWithinItsLengthEndsLeadership() {
    long sentLongAgo = System.nanoTime() - Duration.ofMillis(1_500).toNanos();
    held.take(7, 3, sentLongAgo, () -> true);
    held.confirmed();
    assertThat(held.leadsNow()).isFalse();
    held.renewed(System.nanoTime());
    assertThat(held.leadsNow()).isTrue();
  }

  @Test
  void aTermGivenUpIsHandedOutOnceForItsLeaseToBeReleased() {
    held.take(7, 3, System.nanoTime(), () -> true);
    held.confirmed();
    held.stepDown("test");
    assertThat(held.leadsNow()).isFalse();
    assertThat(held.held()).isZero();
    assertThat(held.takeGivenUp()).isEqualTo(7);
    assertThat(held.takeGivenUp()).isZero();
    held.stepDown("again");
    assertThat(held.takeGivenUp()).as("nothing held, nothing given up").isZero();
  }
}
