package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.controlplane.it.support.Grpc;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.IsolatedServer;
import dev.controlplane.it.support.LiveBrokers;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.proto.v1.AdminServiceGrpc;
import dev.controlplane.proto.v1.CreateStreamRequest;
import dev.controlplane.proto.v1.DeleteStreamRequest;
import dev.controlplane.proto.v1.Durability;
import dev.controlplane.proto.v1.RestoreStreamRequest;
import dev.controlplane.proto.v1.RetentionPolicy;
import dev.controlplane.proto.v1.StreamSpec;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The grace period a delete answers is the one clients can plan by: restorable before it ends, not
 * after, although the purge (every hour here) has not yet freed the stream's name.
 */
class StreamGracePeriodIT {

  @Test
  void aStreamPastItsGracePeriodCannotBeRestoredThoughItsPurgeHasNotRunYet() throws Exception {
    try (IsolatedServer node =
            IsolatedServer.start(
                "grace",
                Map.of(
                    "SERVICE_CONTROLPLANE_STREAM_DELETE_GRACE", "2s",
                    "SERVICE_CONTROLPLANE_STREAM_PURGE_INTERVAL", "1h"));
        Grpc brokerSide = new Grpc(node.grpcPort(), SharedServer.BROKER_TOKEN);
        LiveBrokers brokers = new LiveBrokers(brokerSide, "grace-b1");
        Grpc operator = new Grpc(node.grpcPort(), SharedServer.OPERATOR_TOKEN)) {
      Http http = new Http(node.httpPort(), SharedServer.OPERATOR_TOKEN);
      assertThat(http.put("/v1/tenants/g", Http.tenant("g", "")).status()).isEqualTo(201);
      assertThat(http.put("/v1/tenants/g/namespaces/ns", Http.namespace("g", "ns", "")).status())
          .isEqualTo(201);
      var admin = AdminServiceGrpc.newBlockingStub(operator.channel());
      CreateStreamRequest create =
          CreateStreamRequest.newBuilder()
              .setTenantId("g")
              .setNamespace("ns")
              .setStream("s")
              .setSpec(
                  StreamSpec.newBuilder()
                      .setShards(1)
                      .setReplicationFactor(1)
                      .setDurability(Durability.DURABILITY_DURABLE)
                      .setRetention(RetentionPolicy.newBuilder().setTime("1d")))
              .build();
      var delete =
          DeleteStreamRequest.newBuilder().setTenantId("g").setNamespace("ns").setStream("s");
      var restore =
          RestoreStreamRequest.newBuilder()
              .setTenantId("g")
              .setNamespace("ns")
              .setStream("s")
              .build();
      admin.createStream(create);
      admin.deleteStream(delete.build());
      admin.restoreStream(restore);

      long purgeAfter = admin.deleteStream(delete.build()).getPurgeAfterEpochMs();
      Thread.sleep(Math.max(0, purgeAfter - System.currentTimeMillis()) + 500);
      assertThatThrownBy(() -> admin.restoreStream(restore))
          .isInstanceOfSatisfying(
              StatusRuntimeException.class,
              e -> {
                assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND);
                assertThat(e.getStatus().getDescription()).contains("grace period ended");
              });
      assertThatThrownBy(() -> admin.createStream(create))
          .as("the name is still held until the purge runs")
          .isInstanceOfSatisfying(
              StatusRuntimeException.class,
              e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.ALREADY_EXISTS));
    }
  }
}
