package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.controlplane.it.support.Grpc;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.proto.v1.AdminServiceGrpc;
import dev.controlplane.proto.v1.CreateStreamRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.reflection.v1.ServerReflectionGrpc;
import io.grpc.reflection.v1.ServerReflectionRequest;
import io.grpc.reflection.v1.ServerReflectionResponse;
import io.grpc.reflection.v1.ServiceResponse;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The standard gRPC services next to controlplane.v1, and the HTTP metrics endpoint. */
class GrpcServicesIT {

  @BeforeAll
  static void server() throws Exception {
    SharedServer.ensureStarted();
  }

  @Test
  void grpcHealthCheckingReportsServingWithoutACredential() {
    try (Grpc grpc = new Grpc(SharedServer.grpcPort(), null)) {
      HealthCheckResponse response =
          HealthGrpc.newBlockingStub(grpc.channel()).check(HealthCheckRequest.getDefaultInstance());
      assertThat(response.getStatus()).isEqualTo(HealthCheckResponse.ServingStatus.SERVING);
    }
  }

  @Test
  void reflectionListsTheControlPlaneServices() throws Exception {
    try (Grpc grpc = new Grpc(SharedServer.grpcPort(), null)) {
      CompletableFuture<List<String>> services = new CompletableFuture<>();
      StreamObserver<ServerReflectionRequest> requests =
          ServerReflectionGrpc.newStub(grpc.channel())
              .serverReflectionInfo(
                  new StreamObserver<>() {
                    @Override
                    public void onNext(ServerReflectionResponse r) {
                      services.complete(
                          r.getListServicesResponse().getServiceList().stream()
                              .map(ServiceResponse::getName)
                              .toList());
                    }

                    @Override
                    public void onError(Throwable t) {
                      services.completeExceptionally(t);
                    }

                    @Override
                    public void onCompleted() {}
                  });
      requests.onNext(ServerReflectionRequest.newBuilder().setListServices("").build());
      requests.onCompleted();
      assertThat(services.get(10, TimeUnit.SECONDS))
          .contains(
              "controlplane.v1.MetadataService",
              "controlplane.v1.BrokerService",
              "controlplane.v1.AdminService",
              "grpc.health.v1.Health");
    }
  }

  @Test
  void adminRpcsRefuseTheBrokerCredential() {
    try (Grpc grpc = Grpc.shared()) {
      assertThatThrownBy(
              () ->
                  AdminServiceGrpc.newBlockingStub(grpc.channel())
                      .createStream(
                          CreateStreamRequest.newBuilder()
                              .setTenantId("acme")
                              .setNamespace("ns")
                              .setStream("s")
                              .build()))
          .isInstanceOfSatisfying(
              StatusRuntimeException.class,
              e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED));
    }
  }

  @Test
  void metricsAreServedInPrometheusFormat() {
    var metrics = new Http(SharedServer.httpPort(), null).get("/metrics", "text/plain");
    assertThat(metrics.status()).isEqualTo(200);
    assertThat(metrics.body()).contains("# TYPE").contains("jvm");
  }
}
