package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.controlplane.it.support.ClientImage;
import dev.controlplane.it.support.Grpc;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.Metrics;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.TestDatabase;
import dev.controlplane.it.support.WatchCollector;
import dev.controlplane.proto.v1.GetSnapshotRequest;
import dev.controlplane.proto.v1.MetadataServiceGrpc;
import dev.controlplane.proto.v1.MetadataUpdate;
import dev.controlplane.proto.v1.WatchUpdatesRequest;
import io.grpc.ClientCall;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** WatchUpdates: resumption, history limits, progress notices and slow watchers. */
class WatchIT {

  @BeforeAll
  static void server() throws Exception {
    SharedServer.ensureStarted();
  }

  private static long writeNamespaces(String tenant, int count) {
    return Http.shared().writeNamespaces(tenant, count, 50);
  }

  @Test
  void aWatchResumedFromAnyRetainedVersionDeliversEveryLaterUpdateInOrder() throws Exception {
    long end = writeNamespaces("resume", 200);
    long from0 = Math.max(TestDatabase.retainedFrom() - 1, end - 200);
    Random random = new Random(42);
    try (Grpc grpc = Grpc.shared()) {
      for (int attempt = 0; attempt < 8; attempt++) {
        long from = from0 + random.nextInt((int) (end - from0));
        try (WatchCollector watch = WatchCollector.open(grpc.metadataAsync(), from)) {
          assertThat(watch.awaitVersion(end, Duration.ofSeconds(10))).as("from %d", from).isTrue();
          List<MetadataUpdate> got = watch.updates();
          for (int i = 0; i < got.size(); i++) {
            assertThat(got.get(i).getVersion()).isEqualTo(from + 1 + i);
          }
          var table = TestDatabase.logRows(from).stream().filter(r -> r.version() <= end).toList();
          assertThat(
                  got.stream().filter(u -> u.getVersion() <= end).map(u -> u.getVersion()).toList())
              .isEqualTo(table.stream().map(TestDatabase.LogRow::version).toList());
        }
      }
    }
  }

  @Test
  void anIdleWatchReceivesProgressNoticesAtTheCurrentVersion() throws Exception {
    long head = TestDatabase.headVersion();
    try (Grpc grpc = Grpc.shared();
        WatchCollector watch = WatchCollector.open(grpc.metadataAsync(), head)) {
      assertThat(watch.awaitProgress(SharedServer.PROGRESS_INTERVAL.multipliedBy(5))).isTrue();
      assertThat(watch.progressVersions().get(0)).isGreaterThanOrEqualTo(head);
      assertThat(watch.updates()).allMatch(u -> u.getVersion() > head);
    }
  }

  @Test
  void versionsOlderThanTheRetainedHistoryAreOutOfRange() throws Exception {
    // The shared server keeps RETAINED_VERSIONS versions: write past that so version 1 is trimmed.
    long needed = SharedServer.RETAINED_VERSIONS + 10 - TestDatabase.headVersion();
    if (needed > 0) {
      writeNamespaces("retention", (int) needed);
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    while (TestDatabase.retainedFrom() <= 2 && System.nanoTime() < deadline) {
      Thread.sleep(200);
    }
    long retainedFrom = TestDatabase.retainedFrom();
    assertThat(retainedFrom).isGreaterThan(2);
    try (Grpc grpc = Grpc.shared()) {
      assertThatThrownBy(
              () ->
                  grpc.metadata()
                      .getSnapshot(GetSnapshotRequest.newBuilder().setVersion(1).build())
                      .hasNext())
          .isInstanceOfSatisfying(
              StatusRuntimeException.class,
              e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.OUT_OF_RANGE));
      try (WatchCollector tooOld = WatchCollector.open(grpc.metadataAsync(), 0)) {
        Status status = tooOld.awaitClose(Duration.ofSeconds(10));
        assertThat(status.getCode()).isEqualTo(Status.Code.OUT_OF_RANGE);
        assertThat(status.getDescription()).contains("take a new snapshot");
        assertThat(tooOld.updates()).isEmpty();
      }
      long oldest = TestDatabase.retainedFrom() - 1;
      try (WatchCollector justInside = WatchCollector.open(grpc.metadataAsync(), oldest)) {
        assertThat(justInside.awaitVersion(oldest + 1, Duration.ofSeconds(10))).isTrue();
        assertThat(justInside.updates().get(0).getVersion()).isEqualTo(oldest + 1);
      }
      assertThat(ClientImage.snapshot(grpc.metadata(), oldest).version()).isEqualTo(oldest);
    }
  }

  @Test
  void aWatchFromTheFutureIsOutOfRange() throws Exception {
    try (Grpc grpc = Grpc.shared();
        WatchCollector watch =
            WatchCollector.open(grpc.metadataAsync(), TestDatabase.headVersion() + 1000)) {
      assertThat(watch.awaitClose(Duration.ofSeconds(10)).getCode())
          .isEqualTo(Status.Code.OUT_OF_RANGE);
    }
  }

  @Test
  void aWatcherThatStopsReadingIsCutOffWithoutHoldingUpWritersOrOtherWatchers() throws Exception {
    Http.shared().put("/v1/tenants/slow", Http.tenant("slow", "slow watcher"));
    long start = TestDatabase.headVersion();
    // Before the watch opens: it may be cut off while the writes below are still going on.
    double cutOffs = Metrics.value("controlplane_watch_cutoffs_total", "");
    // A small flow-control window makes the server's side of the stream fill up quickly.
    var slowChannel =
        NettyChannelBuilder.forAddress("127.0.0.1", SharedServer.grpcPort())
            .usePlaintext()
            .flowControlWindow(16 * 1024)
            .build();
    try (Grpc slow = new Grpc(slowChannel, SharedServer.BROKER_TOKEN);
        Grpc fast = Grpc.shared();
        WatchCollector healthy = WatchCollector.open(fast.metadataAsync(), start)) {
      ClientCall<WatchUpdatesRequest, MetadataUpdate> call =
          slow.channel()
              .newCall(MetadataServiceGrpc.getWatchUpdatesMethod(), io.grpc.CallOptions.DEFAULT);
      List<MetadataUpdate> received = new ArrayList<>();
      CompletableFuture<Status> closed = new CompletableFuture<>();
      call.start(
          new ClientCall.Listener<>() {
            @Override
            public void onMessage(MetadataUpdate message) {
              synchronized (received) {
                received.add(message);
              }
            }

            @Override
            public void onClose(Status status, Metadata trailers) {
              closed.complete(status);
            }
          },
          new Metadata());
      call.sendMessage(WatchUpdatesRequest.newBuilder().setFromVersion(start).build());
      call.halfClose();
      call.request(1);

      long writesStarted = System.nanoTime();
      long end = writeNamespaces("slow", 1500);
      double writeSeconds = (System.nanoTime() - writesStarted) / 1e9;
      assertThat(healthy.awaitVersion(end, Duration.ofSeconds(20))).isTrue();
      assertThat(writeSeconds).as("writers are not held up by the slow watcher").isLessThan(60);

      Thread.sleep(SharedServer.STALL_TIMEOUT.multipliedBy(2).toMillis());
      call.request(Integer.MAX_VALUE);
      Status status = closed.get(20, TimeUnit.SECONDS);
      assertThat(status.getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
      assertThat(Metrics.value("controlplane_watch_cutoffs_total", ""))
          .as("the cut-off is counted")
          .isEqualTo(cutOffs + 1);
      List<MetadataUpdate> got;
      synchronized (received) {
        got =
            new ArrayList<>(received)
                .stream()
                    .filter(u -> u.getPayloadCase() != MetadataUpdate.PayloadCase.PAYLOAD_NOT_SET)
                    .toList();
      }
      assertThat(got.size()).isLessThan((int) (end - start));
      for (int i = 0; i < got.size(); i++) {
        assertThat(got.get(i).getVersion()).isEqualTo(start + 1 + i);
      }
      long resumeFrom = got.isEmpty() ? start : got.get(got.size() - 1).getVersion();
      try (WatchCollector resumed = WatchCollector.open(fast.metadataAsync(), resumeFrom)) {
        assertThat(resumed.awaitVersion(end, Duration.ofSeconds(20))).isTrue();
        assertThat(resumed.updates().get(0).getVersion()).isEqualTo(resumeFrom + 1);
      }
    }
  }
}
