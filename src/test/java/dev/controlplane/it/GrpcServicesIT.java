package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.controlplane.it.support.Grpc;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.RawCalls;
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
  void reflectionV1ListsTheServicesAndDescribesAdminAndMetadataServices() throws Exception {
    try (Grpc grpc = new Grpc(SharedServer.grpcPort(), null)) {
      List<ServerReflectionResponse> answers =
          reflect(
              ServerReflectionGrpc.newStub(grpc.channel())::serverReflectionInfo,
              ServerReflectionRequest.newBuilder().setListServices("").build(),
              ServerReflectionRequest.newBuilder()
                  .setFileContainingSymbol("controlplane.v1.AdminService")
                  .build(),
              // GetSnapshot is bound with its own response marshaller; stock tools must still
              // find its contract.
              ServerReflectionRequest.newBuilder()
                  .setFileContainingSymbol("controlplane.v1.MetadataService.GetSnapshot")
                  .build());
      assertThat(
              answers.get(0).getListServicesResponse().getServiceList().stream()
                  .map(ServiceResponse::getName))
          .contains(
              "controlplane.v1.MetadataService",
              "controlplane.v1.BrokerService",
              "controlplane.v1.AdminService",
              "grpc.health.v1.Health",
              "grpc.reflection.v1.ServerReflection",
              "grpc.reflection.v1alpha.ServerReflection");
      assertThat(fileNames(answers.get(1).getFileDescriptorResponse().getFileDescriptorProtoList()))
          .contains("controlplane/v1/admin_service.proto");
      assertThat(fileNames(answers.get(2).getFileDescriptorResponse().getFileDescriptorProtoList()))
          .contains("controlplane/v1/metadata_service.proto");
    }
  }

  @Test
  void reflectionV1alphaListsTheServicesAndDescribesAdminService() throws Exception {
    try (Grpc grpc = new Grpc(SharedServer.grpcPort(), null)) {
      List<io.grpc.reflection.v1alpha.ServerReflectionResponse> answers =
          reflect(
              io.grpc.reflection.v1alpha.ServerReflectionGrpc.newStub(grpc.channel())
                  ::serverReflectionInfo,
              io.grpc.reflection.v1alpha.ServerReflectionRequest.newBuilder()
                  .setListServices("")
                  .build(),
              io.grpc.reflection.v1alpha.ServerReflectionRequest.newBuilder()
                  .setFileContainingSymbol("controlplane.v1.AdminService")
                  .build());
      assertThat(
              answers.get(0).getListServicesResponse().getServiceList().stream()
                  .map(io.grpc.reflection.v1alpha.ServiceResponse::getName))
          .contains(
              "controlplane.v1.MetadataService",
              "controlplane.v1.BrokerService",
              "controlplane.v1.AdminService",
              "grpc.health.v1.Health");
      assertThat(fileNames(answers.get(1).getFileDescriptorResponse().getFileDescriptorProtoList()))
          .contains("controlplane/v1/admin_service.proto");
    }
  }

  /** Sends the requests on one reflection stream and collects one answer per request. */
  @SafeVarargs
  private static <Q, A> List<A> reflect(
      java.util.function.Function<StreamObserver<A>, StreamObserver<Q>> call, Q... requests)
      throws Exception {
    CompletableFuture<List<A>> done = new CompletableFuture<>();
    List<A> answers = new java.util.concurrent.CopyOnWriteArrayList<>();
    StreamObserver<Q> out =
        call.apply(
            new StreamObserver<>() {
              @Override
              public void onNext(A answer) {
                answers.add(answer);
              }

              @Override
              public void onError(Throwable t) {
                done.completeExceptionally(t);
              }

              @Override
              public void onCompleted() {
                done.complete(answers);
              }
            });
    for (Q request : requests) {
      out.onNext(request);
    }
    out.onCompleted();
    return done.get(10, TimeUnit.SECONDS);
  }

  private static List<String> fileNames(List<com.google.protobuf.ByteString> files)
      throws Exception {
    List<String> names = new java.util.ArrayList<>();
    for (var bytes : files) {
      names.add(
          com.google.protobuf.DescriptorProtos.FileDescriptorProto.parseFrom(bytes).getName());
    }
    return names;
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

  /**
   * Every method of the three services, sent a request that does not parse as its message (a
   * length-delimited field cut short), with the credential it takes: the client's mistake is
   * INVALID_ARGUMENT naming the method, where grpc-java's default answer is INTERNAL.
   */
  @Test
  void aRequestThatIsNotTheMethodsMessageIsInvalidArgumentOnEveryMethod() {
    byte[] truncated = {0x0a, 0x05, 'a'};
    int sent =
        refusedAsInvalidArgument(
            method -> true,
            (grpc, method) ->
                RawCalls.call(grpc.channel(), method, truncated, java.time.Duration.ofSeconds(10)));
    assertThat(sent).isGreaterThan(10);
  }

  /**
   * A method that takes one request message, sent none (as a hand-written client can): the client's
   * mistake is INVALID_ARGUMENT naming the method, where grpc-java answers INTERNAL.
   */
  @Test
  void aCallWithoutItsRequestIsInvalidArgumentOnEveryMethod() {
    int sent =
        refusedAsInvalidArgument(
            method -> method.getType().clientSendsOneMessage(),
            (grpc, method) ->
                RawCalls.call(grpc.channel(), method, List.of(), java.time.Duration.ofSeconds(10)));
    assertThat(sent).isGreaterThan(10);
  }

  /**
   * Makes {@code call} on every method {@code which} selects of every service the port serves, with
   * the credential the service takes, and checks each is INVALID_ARGUMENT naming the method.
   */
  private static int refusedAsInvalidArgument(
      java.util.function.Predicate<io.grpc.MethodDescriptor<?, ?>> which,
      java.util.function.BiFunction<Grpc, io.grpc.MethodDescriptor<?, ?>, Status> call) {
    List<io.grpc.ServiceDescriptor> services =
        List.of(
            AdminServiceGrpc.getServiceDescriptor(),
            dev.controlplane.proto.v1.BrokerServiceGrpc.getServiceDescriptor(),
            dev.controlplane.proto.v1.MetadataServiceGrpc.getServiceDescriptor(),
            HealthGrpc.getServiceDescriptor(),
            ServerReflectionGrpc.getServiceDescriptor());
    int sent = 0;
    for (io.grpc.ServiceDescriptor service : services) {
      String token =
          service.getName().endsWith("AdminService")
              ? SharedServer.OPERATOR_TOKEN
              : SharedServer.BROKER_TOKEN;
      try (Grpc grpc = new Grpc(SharedServer.grpcPort(), token)) {
        for (io.grpc.MethodDescriptor<?, ?> method : service.getMethods()) {
          if (!which.test(method)) {
            continue;
          }
          Status status = call.apply(grpc, method);
          assertThat(status.getCode())
              .as(method.getFullMethodName() + ": " + status)
              .isEqualTo(Status.Code.INVALID_ARGUMENT);
          assertThat(status.getDescription())
              .as(method.getFullMethodName())
              .contains(method.getBareMethodName());
          sent++;
        }
      }
    }
    return sent;
  }

  @Test
  void metricsAreServedInPrometheusFormat() {
    var metrics = new Http(SharedServer.httpPort(), null).get("/metrics", "text/plain");
    assertThat(metrics.status()).isEqualTo(200);
    assertThat(metrics.body()).contains("# TYPE").contains("jvm");
  }
}
