package dev.controlplane.metadata.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.Test;

class SnapshotSlotsTest {

  private final List<String> started = new ArrayList<>();
  private final List<String> stalled = new ArrayList<>();

  private SnapshotSlots.Slot admitted(SnapshotSlots slots, String name) {
    SnapshotSlots.Slot slot = slots.slot(() -> started.add(name), () -> stalled.add(name));
    slot.admit();
    return slot;
  }

  @Test
  void beyondTheLimitSnapshotsWaitAndStartInArrivalOrderAsPlacesFree() {
    SnapshotSlots slots = new SnapshotSlots(2, Duration.ofSeconds(30), Runnable::run);
    SnapshotSlots.Slot a = admitted(slots, "a");
    SnapshotSlots.Slot b = admitted(slots, "b");
    admitted(slots, "c");
    admitted(slots, "d");
    assertThat(started).containsExactly("a", "b");
    assertThat(slots.sending()).isEqualTo(2);
    assertThat(slots.waiting()).isEqualTo(2);

    b.release();
    assertThat(started).containsExactly("a", "b", "c");
    b.release(); // twice: no second place freed
    assertThat(started).containsExactly("a", "b", "c");
    a.release();
    assertThat(started).containsExactly("a", "b", "c", "d");
    assertThat(slots.sending()).isEqualTo(2);
    assertThat(slots.waiting()).isZero();
  }

  @Test
  void aSnapshotCancelledWhileWaitingNeverStartsAndTakesNoPlace() {
    SnapshotSlots slots = new SnapshotSlots(1, Duration.ofSeconds(30), Runnable::run);
    SnapshotSlots.Slot a = admitted(slots, "a");
    SnapshotSlots.Slot b = admitted(slots, "b");
    admitted(slots, "c");
    b.release();
    assertThat(slots.waiting()).isEqualTo(1);
    a.release();
    assertThat(started).containsExactly("a", "c");
    assertThat(slots.sending()).isEqualTo(1);
  }

  @Test
  void aSlotReleasedBeforeItAskedNeverStarts() {
    SnapshotSlots slots = new SnapshotSlots(1, Duration.ofSeconds(30), Runnable::run);
    SnapshotSlots.Slot a = slots.slot(() -> started.add("a"), () -> {});
    a.release();
    a.admit();
    assertThat(started).isEmpty();
    assertThat(slots.sending()).isZero();
  }

  @Test
  void onlySnapshotsBlockedLongerThanTheTimeoutAreCutOff() {
    long[] now = {0};
    SnapshotSlots slots = new SnapshotSlots(3, Duration.ofSeconds(30), Runnable::run, () -> now[0]);
    SnapshotSlots.Slot blocked = admitted(slots, "blocked");
    SnapshotSlots.Slot recovered = admitted(slots, "recovered");
    admitted(slots, "never blocked");
    blocked.blocked();
    recovered.blocked();
    now[0] = Duration.ofSeconds(30).toNanos();
    slots.cutOffStalled();
    assertThat(stalled).as("blocked for the timeout, not longer").isEmpty();
    now[0]++;
    recovered.progressed();
    slots.cutOffStalled();
    assertThat(stalled).containsExactly("blocked");
  }

  @Test
  void aBlockedSnapshotThatMovesAgainStartsItsStallClockAfresh() {
    long[] now = {0};
    SnapshotSlots slots = new SnapshotSlots(1, Duration.ofSeconds(30), Runnable::run, () -> now[0]);
    SnapshotSlots.Slot slot = admitted(slots, "a");
    slot.blocked();
    now[0] = Duration.ofSeconds(20).toNanos();
    slot.progressed();
    slot.blocked();
    now[0] = Duration.ofSeconds(40).toNanos();
    slots.cutOffStalled();
    assertThat(stalled).as("blocked for 20 s since it last moved").isEmpty();
    slot.blocked(); // still blocked: the clock keeps its start
    now[0] = Duration.ofSeconds(51).toNanos();
    slots.cutOffStalled();
    assertThat(stalled).containsExactly("a");
  }

  @Test
  void aStartTheExecutorRefusesGivesItsPlaceToTheNext() {
    List<Runnable> accepted = new ArrayList<>();
    boolean[] refuse = {false};
    SnapshotSlots slots =
        new SnapshotSlots(
            1,
            Duration.ofSeconds(30),
            task -> {
              if (refuse[0]) {
                refuse[0] = false;
                throw new RejectedExecutionException("shutting down");
              }
              accepted.add(task);
            });
    SnapshotSlots.Slot a = admitted(slots, "a");
    admitted(slots, "b");
    admitted(slots, "c");
    refuse[0] = true;
    a.release();
    assertThat(accepted).hasSize(2); // a, then c: b's start was refused and freed its place
    accepted.get(1).run();
    assertThat(started).containsExactly("c");
  }
}
