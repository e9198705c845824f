package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.it.support.Grpc;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.IsolatedServer;
import dev.controlplane.it.support.LiveBrokers;
import dev.controlplane.it.support.Metrics;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.proto.v1.GetSnapshotRequest;
import dev.controlplane.proto.v1.GetSnapshotResponse;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.DoublePredicate;
import org.junit.jupiter.api.Test;

/**
 * A node that sends one snapshot at a time ({@code SNAPSHOT_MAX_CONCURRENT=1}) and cuts off a
 * client that stops reading after 6 s, holding more metadata than a client's flow-control window (1
 * MiB): a client that takes one chunk and then nothing keeps its snapshot in flight.
 */
class SnapshotAdmissionIT {

  private static final int STREAMS = 24;

  @Test
  void snapshotsBeyondTheLimitWaitTheirTurnAndAStalledClientIsCutOff() throws Exception {
    try (IsolatedServer node =
            IsolatedServer.start(
                "snapshot-admission",
                Map.of(
                    "SERVICE_CONTROLPLANE_SNAPSHOT_MAX_CONCURRENT", "1",
                    "SERVICE_CONTROLPLANE_WATCH_STALL_TIMEOUT", "6s",
                    "SERVICE_CONTROLPLANE_SNAPSHOT_CHUNK_BYTES", "16384",
                    // Every other node keeps the wire forms; this one sends them as it encodes.
                    "SERVICE_CONTROLPLANE_SNAPSHOT_KEEP_ENCODED", "false"));
        LiveBrokers brokers =
            new LiveBrokers(
                new Grpc(node.grpcPort(), SharedServer.BROKER_TOKEN),
                "snap-a",
                "snap-b",
                "snap-c");
        Grpc first = smallWindow(node);
        Grpc second = smallWindow(node);
        Grpc third = new Grpc(node.grpcPort(), SharedServer.BROKER_TOKEN)) {
      Http http = new Http(node.httpPort(), SharedServer.OPERATOR_TOKEN);
      fill(http);

      Snapshot stalled = Snapshot.open(first, 1);
      awaitMetric(node, "controlplane_snapshots_sending", n -> n == 1);
      Snapshot waiting = Snapshot.open(second, Integer.MAX_VALUE);
      awaitMetric(node, "controlplane_snapshots_waiting", n -> n == 1);
      assertThat(waiting.chunks)
          .as("nothing sent to the second while the first holds the place")
          .isEmpty();
      assertThat(stalled.chunks).hasSize(1);

      // The stalled call is cut off after 6 s, which gives its place to the next. Its client sees
      // the status only once it reads the chunks queued before it.
      assertThat(waiting.end.get(30, TimeUnit.SECONDS).getCode()).isEqualTo(Status.Code.OK);
      stalled.readAll();
      Status cutOff = stalled.end.get(30, TimeUnit.SECONDS);
      assertThat(cutOff.getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
      assertThat(cutOff.getDescription()).contains("service.controlplane.watch.stall.timeout");
      assertThat(stalled.chunks.get(stalled.chunks.size() - 1).getLast()).isFalse();

      List<GetSnapshotResponse> chunks = waiting.chunks;
      assertThat(chunks.get(chunks.size() - 1).getLast()).isTrue();
      long bytes = chunks.stream().mapToLong(GetSnapshotResponse::getSerializedSize).sum();
      assertThat(bytes).as("ten times the stalling client's window").isGreaterThan(10L << 16);
      assertThat(chunks.stream().mapToInt(c -> c.getMetadata().getStreamsCount()).sum())
          .isEqualTo(STREAMS);
      assertThat(chunks.stream().mapToInt(c -> c.getMetadata().getPlacementsCount()).sum())
          .isEqualTo(STREAMS);

      // A waiting call its client cancels leaves the queue; cancelling the one being sent frees
      // the place for the next.
      Snapshot holder = Snapshot.open(first, 1);
      awaitMetric(node, "controlplane_snapshots_sending", n -> n == 1);
      Snapshot impatient = Snapshot.open(second, Integer.MAX_VALUE);
      awaitMetric(node, "controlplane_snapshots_waiting", n -> n == 1);
      impatient.cancel();
      awaitMetric(node, "controlplane_snapshots_waiting", n -> n == 0);
      holder.cancel();
      awaitMetric(node, "controlplane_snapshots_sending", n -> n == 0);
      Snapshot next = Snapshot.open(third, Integer.MAX_VALUE);
      assertThat(next.end.get(30, TimeUnit.SECONDS).getCode()).isEqualTo(Status.Code.OK);
      assertThat(impatient.chunks).isEmpty();
    }
  }

  private static Grpc smallWindow(IsolatedServer node) {
    return new Grpc(
        NettyChannelBuilder.forAddress("127.0.0.1", node.grpcPort())
            .usePlaintext()
            .flowControlWindow(1 << 16)
            .build(),
        SharedServer.BROKER_TOKEN);
  }

  /** Three brokers, and 24 streams of 1,024 shards at replication factor 3: about 900 kB. */
  private static void fill(Http http) {
    assertThat(http.put("/v1/tenants/snap", Http.tenant("snap", "snapshots")).status())
        .isEqualTo(201);
    assertThat(
            http.put("/v1/tenants/snap/namespaces/ns", Http.namespace("snap", "ns", "")).status())
        .isEqualTo(201);
    for (int i = 0; i < STREAMS; i++) {
      var created =
          http.put(
              "/v1/tenants/snap/namespaces/ns/streams/s" + i,
              Http.stream("snap", "ns", "s" + i, 1024, 3));
      assertThat(created.status()).as(created.body()).isEqualTo(201);
    }
  }

  private static void awaitMetric(IsolatedServer node, String name, DoublePredicate expected)
      throws InterruptedException {
    Http http = new Http(node.httpPort(), null);
    Metrics.await(
        name, () -> Metrics.valueIn(http.get("/metrics", "text/plain").body(), name, ""), expected);
  }

  /** A GetSnapshot call that takes at most {@code take} chunks and then stops reading. */
  private static final class Snapshot
      implements ClientResponseObserver<GetSnapshotRequest, GetSnapshotResponse> {

    final List<GetSnapshotResponse> chunks = new CopyOnWriteArrayList<>();
    final CompletableFuture<Status> end = new CompletableFuture<>();
    private final int take;
    private volatile ClientCallStreamObserver<GetSnapshotRequest> call;

    private Snapshot(int take) {
      this.take = take;
    }

    static Snapshot open(Grpc channel, int take) {
      Snapshot snapshot = new Snapshot(take);
      channel
          .metadataAsync()
          .withDeadlineAfter(Duration.ofMinutes(2).toMillis(), TimeUnit.MILLISECONDS)
          .getSnapshot(GetSnapshotRequest.getDefaultInstance(), snapshot);
      return snapshot;
    }

    @Override
    public void beforeStart(ClientCallStreamObserver<GetSnapshotRequest> requestStream) {
      call = requestStream;
      if (take != Integer.MAX_VALUE) {
        requestStream.disableAutoRequestWithInitial(take);
      }
    }

    void readAll() {
      call.request(Integer.MAX_VALUE);
    }

    void cancel() {
      call.cancel("the test gives up", null);
    }

    @Override
    public void onNext(GetSnapshotResponse chunk) {
      chunks.add(chunk);
    }

    @Override
    public void onError(Throwable t) {
      end.complete(Status.fromThrowable(t));
    }

    @Override
    public void onCompleted() {
      end.complete(Status.OK);
    }
  }
}
