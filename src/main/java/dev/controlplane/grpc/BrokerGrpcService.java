package dev.controlplane.grpc;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.controlplane.broker.BrokerRegistry;
import dev.controlplane.broker.BrokerRegistry.Registered;
import dev.controlplane.broker.HealthReport;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.metadata.model.Names;
import dev.controlplane.proto.v1.BrokerServiceGrpc;
import dev.controlplane.proto.v1.RegisterBrokerRequest;
import dev.controlplane.proto.v1.RegisterBrokerResponse;
import dev.controlplane.proto.v1.ReportHealthRequest;
import dev.controlplane.proto.v1.ReportHealthResponse;
import dev.controlplane.proto.v1.ShardStatus;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.List;

/** RegisterBroker and ReportHealth. */
final class BrokerGrpcService extends BrokerServiceGrpc.BrokerServiceImplBase {

  private static final JsonFormat.Printer JSON =
      JsonFormat.printer().omittingInsignificantWhitespace().preservingProtoFieldNames();

  private final BrokerRegistry registry;
  private final Duration heartbeatInterval;

  BrokerGrpcService(BrokerRegistry registry, Duration heartbeatInterval) {
    this.registry = registry;
    this.heartbeatInterval = heartbeatInterval;
  }

  @Override
  public void registerBroker(
      RegisterBrokerRequest request, StreamObserver<RegisterBrokerResponse> out) {
    try {
      requireSelf(request.getBrokerId());
      var capacity = request.getCapacity();
      Registered registered =
          registry.register(
              request.getBrokerId(),
              request.getAddress(),
              capacity.hasMaxShards() ? capacity.getMaxShards() : null,
              capacity.hasMaxConnections() ? capacity.getMaxConnections() : null,
              request.getMetadataMap());
      out.onNext(
          RegisterBrokerResponse.newBuilder()
              .setBroker(ProtoMapper.broker(registered.broker()))
              .setMetadataVersion(registered.metadataVersion())
              .setHeartbeatIntervalMs((int) heartbeatInterval.toMillis())
              .build());
      out.onCompleted();
    } catch (RuntimeException e) {
      out.onError(GrpcStatus.of(e));
    }
  }

  @Override
  public void reportHealth(ReportHealthRequest request, StreamObserver<ReportHealthResponse> out) {
    try {
      if (!Names.isValid(request.getBrokerId())) {
        throw ControlPlaneException.validation("broker_id", "must be " + Names.RULE);
      }
      requireSelf(request.getBrokerId());
      Registered registered = registry.reportHealth(toReport(request));
      out.onNext(
          ReportHealthResponse.newBuilder()
              .setBrokerStatus(ProtoMapper.status(registered.broker().status()))
              .setMetadataVersion(registered.metadataVersion())
              .setHeartbeatIntervalMs((int) heartbeatInterval.toMillis())
              .build());
      out.onCompleted();
    } catch (RuntimeException e) {
      out.onError(GrpcStatus.of(e));
    }
  }

  /**
   * Under mutual TLS a broker speaks only for itself: its certificate's common name is its id, so a
   * certified broker cannot register or report health as another one.
   */
  private static void requireSelf(String brokerId) {
    String certified = BrokerCredentialInterceptor.CERTIFIED_BROKER.get();
    if (certified != null && !certified.equals(brokerId)) {
      throw Status.PERMISSION_DENIED
          .withDescription(
              "the client certificate identifies broker '"
                  + certified
                  + "', which may register and report only as itself, not as '"
                  + brokerId
                  + "'")
          .asRuntimeException();
    }
  }

  private static HealthReport toReport(ReportHealthRequest request) {
    List<HealthReport.ShardStatus> shards =
        request.getShardStatusList().stream()
            .map(
                s ->
                    new HealthReport.ShardStatus(
                        s.getTenantId(),
                        s.getNamespace(),
                        s.getStream(),
                        s.getShardId(),
                        s.getRole().name(),
                        s.getActiveSubscribers()))
            .toList();
    return new HealthReport(
        request.getBrokerId(),
        request.getStatus().getHealthy(),
        request.getStatus().getMessage(),
        request.getStatus().getUptimeSeconds(),
        json(request.getMetrics()),
        shards,
        shardsJson(request.getShardStatusList()));
  }

  private static String json(com.google.protobuf.MessageOrBuilder message) {
    try {
      return JSON.print(message);
    } catch (InvalidProtocolBufferException e) {
      throw ControlPlaneException.validation("metrics", "cannot be represented as JSON");
    }
  }

  private static String shardsJson(List<ShardStatus> shards) {
    StringBuilder out = new StringBuilder("[");
    for (int i = 0; i < shards.size(); i++) {
      out.append(i == 0 ? "" : ",").append(json(shards.get(i)));
    }
    return out.append(']').toString();
  }
}
