package dev.controlplane.grpc;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.metadata.snapshot.SnapshotService;
import dev.controlplane.metadata.snapshot.SnapshotSlots;
import io.grpc.stub.ServerCallStreamObserver;

/**
 * One GetSnapshot call: waits for a {@link SnapshotSlots} place, then takes its image (so "latest"
 * is the head when it starts, not when it queued) and sends chunks as the client's flow-control
 * window opens, not all at once: a slow client of a large cluster costs one chunk of memory, not
 * the whole snapshot. Synchronized because the start, gRPC's handlers and the stall check run on
 * different threads, and a call takes one message at a time.
 */
final class SnapshotStream {

  private final ServerCallStreamObserver<EncodedChunk> call;
  private final SnapshotService snapshots;
  private final long version;
  private final int chunkBytes;
  private final SnapshotSlots slots;
  private final SnapshotSlots.Slot slot;
  private final EncodedResources encoded;
  private SnapshotChunks chunks;
  private boolean done;

  SnapshotStream(
      ServerCallStreamObserver<EncodedChunk> call,
      SnapshotService snapshots,
      long version,
      int chunkBytes,
      SnapshotSlots slots,
      EncodedResources encoded) {
    this.call = call;
    this.snapshots = snapshots;
    this.version = version;
    this.chunkBytes = chunkBytes;
    this.slots = slots;
    this.encoded = encoded;
    this.slot = slots.slot(this::start, this::stalled);
  }

  /** Sets the call's handlers (gRPC takes them only before the method returns) and queues it. */
  void open() {
    call.setOnCancelHandler(this::cancelled);
    call.setOnReadyHandler(this::send);
    slot.admit();
  }

  private synchronized void start() {
    if (done) {
      return;
    }
    try {
      chunks = new SnapshotChunks(snapshots.snapshotAt(version), chunkBytes, encoded);
    } catch (RuntimeException e) {
      fail(e);
      return;
    }
    send();
  }

  private synchronized void send() {
    if (done || chunks == null) {
      return;
    }
    try {
      while (call.isReady() && chunks.hasNext()) {
        call.onNext(chunks.next());
        slot.progressed();
      }
    } catch (RuntimeException e) {
      fail(e);
      return;
    }
    if (chunks.hasNext()) {
      slot.blocked();
    } else {
      done = true;
      slot.release();
      call.onCompleted();
      if (version == 0) {
        // A pass over the latest image: what it did not send is deleted or replaced.
        encoded.dropUnusedSince(chunks.pass());
      }
    }
  }

  private synchronized void cancelled() {
    done = true;
    slot.release();
  }

  private synchronized void stalled() {
    if (!done) {
      fail(
          new ControlPlaneException(
              ErrorCode.RESOURCE_EXHAUSTED,
              "the snapshot's client took no chunk for longer than "
                  + slots.stallTimeout().toMillis()
                  + " ms (service.controlplane.watch.stall.timeout); ask again"));
    }
  }

  private void fail(RuntimeException e) {
    done = true;
    slot.release();
    call.onError(GrpcStatus.of(e));
  }
}
