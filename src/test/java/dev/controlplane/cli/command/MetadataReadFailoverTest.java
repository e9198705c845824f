package dev.controlplane.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.cli.InProcess;
import dev.controlplane.cli.client.LoopbackNode;
import dev.controlplane.proto.v1.GetSnapshotRequest;
import dev.controlplane.proto.v1.GetSnapshotResponse;
import dev.controlplane.proto.v1.Metadata;
import dev.controlplane.proto.v1.MetadataServiceGrpc;
import dev.controlplane.proto.v1.MetadataUpdate;
import dev.controlplane.proto.v1.Tenant;
import dev.controlplane.proto.v1.WatchUpdatesRequest;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code snapshot save} and the start of a {@code watch} are reads: when a node of the context
 * cannot be reached, or breaks off, the next one is asked (docs/cli.md, Several servers).
 */
class MetadataReadFailoverTest {

  private static final Map<String, String> BROKER = Map.of("CPCTL_BROKER_TOKEN", "broker");

  /** A node at version 7 with one tenant, whose watch sends one update (version 8) and ends. */
  private static final class Healthy extends MetadataServiceGrpc.MetadataServiceImplBase {
    @Override
    public void getSnapshot(
        GetSnapshotRequest request, StreamObserver<GetSnapshotResponse> response) {
      response.onNext(chunk(0, false, "acme"));
      response.onNext(chunk(1, true, "zeta"));
      response.onCompleted();
    }

    @Override
    public void watchUpdates(WatchUpdatesRequest request, StreamObserver<MetadataUpdate> response) {
      if (request.getFromVersion() == 7) {
        response.onNext(
            MetadataUpdate.newBuilder()
                .setVersion(8)
                .setTenant(Tenant.newBuilder().setName("created-at-8"))
                .build());
      }
      response.onCompleted();
    }
  }

  /** A node that sends the first chunk of its snapshot and goes away. */
  private static final class BreaksOff extends MetadataServiceGrpc.MetadataServiceImplBase {
    @Override
    public void getSnapshot(
        GetSnapshotRequest request, StreamObserver<GetSnapshotResponse> response) {
      response.onNext(chunk(0, false, "acme"));
      response.onError(Status.UNAVAILABLE.withDescription("the node is stopping").asException());
    }
  }

  private static GetSnapshotResponse chunk(int number, boolean last, String tenant) {
    return GetSnapshotResponse.newBuilder()
        .setVersion(7)
        .setChunk(number)
        .setLast(last)
        .setMetadata(Metadata.newBuilder().addTenants(Tenant.newBuilder().setName(tenant)))
        .build();
  }

  @Test
  void snapshotSaveReadsFromTheNextNodeWhenTheFirstCannotBeReached() throws Exception {
    try (LoopbackNode healthy = LoopbackNode.plaintext(new Healthy())) {
      String servers = LoopbackNode.refusing() + "," + healthy.hostPort();

      InProcess.Run run =
          InProcess.cpctl(BROKER, "--grpc-server", servers, "snapshot", "save", "-");

      assertThat(run.exit()).as(run.err()).isZero();
      assertThat(run.err()).contains("snapshot at version 7: 2 tenants");
    }
  }

  @Test
  void aSnapshotThatBreaksOffIsReadAgainWholeFromTheNextNode() throws Exception {
    try (LoopbackNode breaking = LoopbackNode.plaintext(new BreaksOff());
        LoopbackNode healthy = LoopbackNode.plaintext(new Healthy())) {
      String servers = breaking.hostPort() + "," + healthy.hostPort();

      InProcess.Run run =
          InProcess.cpctl(BROKER, "--grpc-server", servers, "snapshot", "save", "-");

      assertThat(run.exit()).as(run.err()).isZero();
      assertThat(run.err()).as("the broken node's chunk is not kept").contains(": 2 tenants");
    }
  }

  @Test
  void watchWithoutAFromVersionStartsOnTheNextNodeWhenTheFirstCannotBeReached() throws Exception {
    try (LoopbackNode healthy = LoopbackNode.plaintext(new Healthy())) {
      String servers = LoopbackNode.refusing() + "," + healthy.hostPort();

      InProcess.Run run =
          InProcess.cpctl(BROKER, "--grpc-server", servers, "watch", "--count", "1", "-o", "json");

      assertThat(run.exit()).as(run.err()).isZero();
      assertThat(run.out()).contains("\"version\":8").contains("created-at-8");
    }
  }
}
