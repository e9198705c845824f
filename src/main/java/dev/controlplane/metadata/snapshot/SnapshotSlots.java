package dev.controlplane.metadata.snapshot;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.LongSupplier;

/**
 * Lets at most {@code limit} snapshots be sent at once; the others wait in arrival order and hold
 * nothing but their place. Each snapshot being sent costs a core while its client keeps up and a
 * chunk or two of transport buffers, so without a limit a thousand brokers asking at once (after a
 * restart, or after the history they needed was trimmed) would hold a thousand of each and all
 * finish late; with it, memory is bounded and the first ones finish first.
 *
 * <p>A snapshot whose client stops taking chunks for longer than the stall timeout is cut off
 * ({@link #cutOffStalled}), so a stuck client cannot keep its slot from the others.
 */
public final class SnapshotSlots {

  private final int limit;
  private final Duration stallTimeout;
  private final Executor starter;
  private final LongSupplier nanoClock;
  private final ArrayDeque<Slot> waiting = new ArrayDeque<>();
  private final Set<Slot> sending = new LinkedHashSet<>();

  /** {@code starter} runs each admitted snapshot's start, never the thread that freed its slot. */
  public SnapshotSlots(int limit, Duration stallTimeout, Executor starter) {
    this(limit, stallTimeout, starter, System::nanoTime);
  }

  SnapshotSlots(int limit, Duration stallTimeout, Executor starter, LongSupplier nanoClock) {
    if (limit < 1) {
      throw new IllegalArgumentException("limit " + limit);
    }
    this.limit = limit;
    this.stallTimeout = stallTimeout;
    this.starter = starter;
    this.nanoClock = nanoClock;
  }

  /**
   * A slot for one snapshot, not yet asked for: {@code start} runs once it is admitted, {@code
   * onStall} if it is then cut off for stalling.
   */
  public Slot slot(Runnable start, Runnable onStall) {
    return new Slot(start, onStall);
  }

  /** How long a snapshot may stay blocked by its client before it is cut off. */
  public Duration stallTimeout() {
    return stallTimeout;
  }

  public synchronized int sending() {
    return sending.size();
  }

  public synchronized int waiting() {
    return waiting.size();
  }

  /** Runs {@code onStall} of every snapshot blocked by its client for longer than the timeout. */
  public void cutOffStalled() {
    long now = nanoClock.getAsLong();
    List<Slot> stalled = new ArrayList<>();
    synchronized (this) {
      for (Slot slot : sending) {
        if (slot.stalledAt(now, stallTimeout.toNanos())) {
          stalled.add(slot);
        }
      }
    }
    // Outside the lock: a cut-off releases its slot, which takes the lock again.
    stalled.forEach(slot -> slot.onStall.run());
  }

  private void start(Slot slot) {
    try {
      starter.execute(slot.start);
    } catch (RejectedExecutionException shuttingDown) {
      slot.release();
    }
  }

  /** One snapshot's place: waiting, sending, or released. */
  public final class Slot {

    private final Runnable start;
    private final Runnable onStall;
    private boolean released;
    // Written by the snapshot's sender, read by the stall check.
    private volatile boolean blocked;
    private volatile long blockedSince;

    private Slot(Runnable start, Runnable onStall) {
      this.start = start;
      this.onStall = onStall;
    }

    /** Asks for a place: starts at once if one is free, else when it comes to this slot's turn. */
    public void admit() {
      synchronized (SnapshotSlots.this) {
        if (released) {
          return;
        }
        if (sending.size() >= limit) {
          waiting.add(this);
          return;
        }
        sending.add(this);
      }
      start(this);
    }

    /** The client could take no more: from now on the snapshot counts as blocked. */
    public void blocked() {
      if (!blocked) {
        blockedSince = nanoClock.getAsLong();
        blocked = true;
      }
    }

    /** The client took a chunk. */
    public void progressed() {
      blocked = false;
    }

    private boolean stalledAt(long now, long timeoutNanos) {
      return blocked && now - blockedSince > timeoutNanos;
    }

    /**
     * Gives the place up (the snapshot was sent, failed or was cancelled), or leaves the queue if
     * it was still waiting; the next waiting snapshot starts. Idempotent.
     */
    public void release() {
      Slot next;
      synchronized (SnapshotSlots.this) {
        if (released) {
          return;
        }
        released = true;
        if (waiting.remove(this) || !sending.remove(this)) {
          return;
        }
        next = waiting.poll();
        if (next == null) {
          return;
        }
        sending.add(next);
      }
      start(next);
    }
  }
}
