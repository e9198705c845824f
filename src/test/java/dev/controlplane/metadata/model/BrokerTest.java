package dev.controlplane.metadata.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The operator's drain beside the status a broker is in. */
class BrokerTest {

  private static Broker broker(Broker.Status status) {
    return new Broker("b3", "h:1", "r1", "z1", Broker.Capacity.UNLIMITED, status, 7);
  }

  @Test
  void aDrainedBrokerMarkedDownComesBackDraining() {
    Broker down = broker(Broker.Status.ACTIVE).drained().markedDown();
    assertThat(down.status()).isEqualTo(Broker.Status.DOWN);
    assertThat(down.drainRequested()).isTrue();
    assertThat(down.back().status()).isEqualTo(Broker.Status.DRAINING);
  }

  @Test
  void aBrokerThatWentDownUndrainedComesBackActive() {
    assertThat(broker(Broker.Status.ACTIVE).markedDown().back().status())
        .isEqualTo(Broker.Status.ACTIVE);
    assertThat(broker(Broker.Status.DRAINING).markedDown().undrained().back().status())
        .as("undrained while down")
        .isEqualTo(Broker.Status.ACTIVE);
  }

  @Test
  void aDownBrokerDrainedStaysDownUntilItIsBackThenDrains() {
    Broker drained = broker(Broker.Status.DOWN).drained();
    assertThat(drained.status()).isEqualTo(Broker.Status.DOWN);
    assertThat(drained.drainRequested()).isTrue();
    assertThat(drained.back().status()).isEqualTo(Broker.Status.DRAINING);
  }

  @Test
  void aLiveBrokerIsDrainingExactlyWhenADrainIsRequested() {
    assertThat(broker(Broker.Status.DRAINING).drainRequested()).isTrue();
    assertThat(broker(Broker.Status.ACTIVE).drainRequested()).isFalse();
    Broker inconsistent =
        new Broker(
            "b3",
            "h:1",
            "r1",
            "z1",
            null,
            Broker.Capacity.UNLIMITED,
            Broker.Status.ACTIVE,
            true,
            7);
    assertThat(inconsistent.drainRequested()).as("an active broker is not drained").isFalse();
    assertThat(broker(Broker.Status.DRAINING).undrained().status()).isEqualTo(Broker.Status.ACTIVE);
    assertThat(broker(Broker.Status.DRAINING).withStatus(Broker.Status.ACTIVE).drainRequested())
        .isFalse();
  }

  @Test
  void aLiveBrokerIsUnchangedByComingBack() {
    Broker draining = broker(Broker.Status.DRAINING);
    assertThat(draining.back()).isSameAs(draining);
  }
}
