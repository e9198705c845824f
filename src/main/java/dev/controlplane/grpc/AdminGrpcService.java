package dev.controlplane.grpc;

import dev.controlplane.audit.Actor;
import dev.controlplane.audit.CurrentActor;
import dev.controlplane.broker.BrokerRegistry;
import dev.controlplane.broker.ShardLeadership;
import dev.controlplane.broker.rebalance.PlannedMove;
import dev.controlplane.broker.rebalance.RebalanceService;
import dev.controlplane.broker.rebalance.Strategy;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.metadata.StreamQueries;
import dev.controlplane.metadata.StreamService;
import dev.controlplane.metadata.VersionMatch;
import dev.controlplane.metadata.codec.ResourceCodec;
import dev.controlplane.metadata.log.WriteMode;
import dev.controlplane.metadata.model.Broker;
import dev.controlplane.metadata.model.Names;
import dev.controlplane.metadata.model.Stream;
import dev.controlplane.metadata.model.StreamRef;
import dev.controlplane.proto.v1.*;
import dev.controlplane.rbac.Action;
import dev.controlplane.rbac.RbacObject;
import io.grpc.Context;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;

/**
 * AdminService: stream and broker administration; each RPC names what it touches to {@link
 * AdminAuthorizer}.
 */
final class AdminGrpcService extends AdminServiceGrpc.AdminServiceImplBase {

  private final StreamService streams;
  private final StreamQueries queries;
  private final RebalanceService rebalancer;
  private final ShardLeadership leadership;
  private final BrokerRegistry brokers;
  private final ResourceCodec codec;
  private final AdminAuthorizer auth;
  private final Executor rpcPool;

  AdminGrpcService(
      Executor rpcPool,
      AdminAuthorizer auth,
      StreamService streams,
      StreamQueries queries,
      RebalanceService rebalancer,
      ShardLeadership leadership,
      BrokerRegistry brokers,
      ResourceCodec codec) {
    this.streams = streams;
    this.queries = queries;
    this.rebalancer = rebalancer;
    this.leadership = leadership;
    this.brokers = brokers;
    this.codec = codec;
    this.auth = auth;
    this.rpcPool = rpcPool;
  }

  private void requireStreamManage(StreamRef ref) {
    auth.require(ref.tenant(), Action.STREAM_MANAGE, streamObject(ref));
  }

  private static RbacObject streamObject(StreamRef ref) {
    return RbacObject.stream(ref.tenant(), ref.namespace(), ref.stream());
  }

  private static <T> void answer(StreamObserver<T> out, Supplier<T> call) {
    try {
      out.onNext(call.get());
      out.onCompleted();
    } catch (RuntimeException e) {
      out.onError(GrpcStatus.of(e));
    }
  }

  /**
   * Answers once the stream's batch commits, without a thread waiting for it: the answer goes out
   * from the call's event loop, so the pipeline hands each commit to the loop that writes it.
   *
   * <p>The call runs on that loop too ({@link CallExecutors}), which spares a lone write the
   * wake-up of a pool thread. Everything it does there is in memory, except checking a service
   * token this node has not seen or whose tenant's keys it has not loaded: such a call moves to the
   * RPC pool.
   */
  @Override
  public void createStream(CreateStreamRequest r, StreamObserver<CreateStreamResponse> out) {
    create(r, out, TransportThread.EVENT_LOOP.get(), TransportThread.onCallsLoop());
  }

  private void create(
      CreateStreamRequest r,
      StreamObserver<CreateStreamResponse> out,
      Executor loop,
      boolean onLoop) {
    CompletableFuture<Stream> created;
    try {
      StreamRef ref = ref(r.getTenantId(), r.getNamespace(), r.getStream());
      if (!onLoop) {
        requireStreamManage(ref);
      } else if (!auth.requireWithoutIo(ref.tenant(), Action.STREAM_MANAGE, streamObject(ref))) {
        try {
          rpcPool.execute(onCallersBehalf(() -> create(r, out, loop, false)));
        } catch (RejectedExecutionException stopping) {
          throw ControlPlaneException.unavailable("the server is stopping; retry", stopping);
        }
        return;
      }
      created =
          streams.createStreamAsync(
              StreamSpecs.toStream(
                  codec, r.getTenantId(), r.getNamespace(), r.getStream(), r.getSpec()));
    } catch (RuntimeException e) {
      out.onError(GrpcStatus.of(e));
      return;
    }
    created.whenCompleteAsync(
        (stream, error) -> {
          if (error != null) {
            out.onError(
                GrpcStatus.of(
                    error instanceof CompletionException c && c.getCause() != null
                        ? c.getCause()
                        : error));
            return;
          }
          out.onNext(
              CreateStreamResponse.newBuilder()
                  .setStreamId(stream.key())
                  .setStatus(StreamStatus.STREAM_STATUS_ACTIVE)
                  .setMetadataVersion(stream.version())
                  .build());
          out.onCompleted();
        },
        loop != null ? loop : ForkJoinPool.commonPool());
  }

  /** {@code task} with the call's gRPC context and audit actor, for another thread. */
  private static Runnable onCallersBehalf(Runnable task) {
    Actor actor = CurrentActor.get();
    Runnable inContext = Context.current().wrap(task);
    return () -> {
      try (var bound = CurrentActor.bind(actor)) {
        inContext.run();
      }
    };
  }

  @Override
  public void deleteStream(DeleteStreamRequest r, StreamObserver<DeleteStreamResponse> out) {
    answer(
        out,
        () -> {
          StreamRef stream = ref(r.getTenantId(), r.getNamespace(), r.getStream());
          requireStreamManage(stream);
          var deleted =
              streams.deleteStream(stream, r.getForce(), VersionMatch.NONE, WriteMode.COMMIT);
          return DeleteStreamResponse.newBuilder()
              .setStatus(StreamStatus.STREAM_STATUS_DELETING)
              .setMetadataVersion(deleted.stream().version())
              .setPurgeAfterEpochMs(deleted.purgeAfter().toEpochMilli())
              .build();
        });
  }

  @Override
  public void restoreStream(RestoreStreamRequest r, StreamObserver<RestoreStreamResponse> out) {
    answer(
        out,
        () -> {
          StreamRef stream = ref(r.getTenantId(), r.getNamespace(), r.getStream());
          requireStreamManage(stream);
          var restored = streams.restoreStream(stream);
          return RestoreStreamResponse.newBuilder()
              .setStreamId(restored.key())
              .setStatus(StreamStatus.STREAM_STATUS_ACTIVE)
              .setMetadataVersion(restored.version())
              .build();
        });
  }

  @Override
  public void listStreams(ListStreamsRequest r, StreamObserver<ListStreamsResponse> out) {
    answer(
        out,
        () -> {
          check("tenant_id", r.getTenantId());
          check("namespace", r.getNamespace());
          auth.require(
              r.getTenantId(),
              Action.STREAM_MANAGE,
              RbacObject.stream(r.getTenantId(), r.getNamespace(), RbacObject.WILDCARD));
          var page =
              queries.listStreams(
                  r.getTenantId(),
                  r.getNamespace(),
                  r.getFilter(),
                  pageSize(r.getPageSize()),
                  r.getPageToken());
          var response = ListStreamsResponse.newBuilder().setNextPageToken(page.nextPageToken());
          for (var info : page.streams()) {
            var m = info.metrics();
            response.addStreams(
                StreamInfo.newBuilder()
                    .setName(info.stream().name())
                    .setSpec(ProtoMapper.spec(info.stream().spec()))
                    .setStatus(StreamStatus.STREAM_STATUS_ACTIVE)
                    .setMetrics(
                        StreamMetrics.newBuilder()
                            .setActiveSubscribers(
                                (int) Math.min(Integer.MAX_VALUE, m.activeSubscribers()))
                            .setPublishRate(m.publishRate())
                            .setStorageBytes(m.storageBytes())
                            .setShardsReporting(m.shardsReporting())
                            .setShardsInSync(m.shardsInSync())));
          }
          return response.build();
        });
  }

  @Override
  public void rebalanceShards(
      RebalanceShardsRequest r, StreamObserver<RebalanceShardsResponse> out) {
    answer(
        out,
        () -> {
          var scope = new RebalanceService.Scope(r.getTenantId(), r.getNamespace(), r.getStream());
          authorizeRebalance(r);
          Strategy strategy =
              switch (r.getStrategy()) {
                case BALANCED -> Strategy.BALANCED;
                case MINIMIZE_MOVEMENT -> Strategy.MINIMIZE_MOVEMENT;
                case LOCALITY_AWARE -> Strategy.LOCALITY_AWARE;
                default ->
                    throw ControlPlaneException.validation("strategy", "is not a known strategy");
              };
          var result = rebalancer.rebalance(scope, strategy, r.getDryRun());
          MoveStatus moveStatus =
              result.applied() ? MoveStatus.MOVE_STATUS_APPLIED : MoveStatus.MOVE_STATUS_PLANNED;
          var response =
              RebalanceShardsResponse.newBuilder()
                  .setMovementCount((int) result.plan().replicaMoves())
                  .setMetadataVersion(result.metadataVersion())
                  .setStatus(
                      result.plan().moves().isEmpty()
                          ? RebalanceStatus.REBALANCE_STATUS_NOOP
                          : result.applied()
                              ? RebalanceStatus.REBALANCE_STATUS_APPLIED
                              : RebalanceStatus.REBALANCE_STATUS_PLANNED);
          for (PlannedMove m : result.plan().moves()) {
            response.addMoves(
                ShardMove.newBuilder()
                    .setStreamId(m.stream().key())
                    .setShardId(m.shardId())
                    .setFromBroker(m.from())
                    .setToBroker(m.to())
                    .setLeadership(m.leadership())
                    .setStatus(moveStatus));
          }
          return response.build();
        });
  }

  @Override
  public void transferShardLeadership(
      TransferShardLeadershipRequest r, StreamObserver<TransferShardLeadershipResponse> out) {
    answer(
        out,
        () -> {
          String[] parts = r.getStreamId().split("/", -1);
          if (parts.length != 3) {
            throw ControlPlaneException.validation("stream_id", "must be tenant/namespace/stream");
          }
          check("target_broker", r.getTargetBroker());
          StreamRef stream = ref(parts[0], parts[1], parts[2]);
          requireStreamManage(stream);
          var transfer = leadership.transfer(stream, r.getShardId(), r.getTargetBroker());
          return TransferShardLeadershipResponse.newBuilder()
              .setPreviousLeader(transfer.previousLeader())
              .setNewLeader(transfer.newLeader())
              .setMetadataVersion(transfer.metadataVersion())
              .build();
        });
  }

  /**
   * {@code page_size} is a uint32, which Java reads as negative from 2^31 up; as an int it would
   * mean "unset" (100) rather than "more than the cap" (1000).
   */
  static int pageSize(int uint32) {
    return (int) Math.min(Integer.toUnsignedLong(uint32), Integer.MAX_VALUE);
  }

  @Override
  public void setBrokerStatus(
      SetBrokerStatusRequest r, StreamObserver<SetBrokerStatusResponse> out) {
    answer(
        out,
        () -> {
          auth.requireOperator();
          check("broker_id", r.getBrokerId());
          Broker.Status status =
              switch (r.getStatus()) {
                case BROKER_STATUS_DRAINING -> Broker.Status.DRAINING;
                case BROKER_STATUS_ACTIVE -> Broker.Status.ACTIVE;
                default ->
                    throw ControlPlaneException.validation(
                        "status", "must be BROKER_STATUS_DRAINING or BROKER_STATUS_ACTIVE");
              };
          var registered =
              brokers.setStatus(
                  r.getBrokerId(),
                  status,
                  expected(r.hasExpectedVersion(), r.getExpectedVersion()),
                  r.getDryRun() ? WriteMode.DRY_RUN : WriteMode.COMMIT);
          return SetBrokerStatusResponse.newBuilder()
              .setBroker(ProtoMapper.broker(registered.broker()))
              .setMetadataVersion(registered.metadataVersion())
              .build();
        });
  }

  @Override
  public void removeBroker(RemoveBrokerRequest r, StreamObserver<RemoveBrokerResponse> out) {
    answer(
        out,
        () -> {
          auth.requireOperator();
          check("broker_id", r.getBrokerId());
          Broker removed =
              brokers.remove(
                  r.getBrokerId(),
                  expected(r.hasExpectedVersion(), r.getExpectedVersion()),
                  r.getDryRun() ? WriteMode.DRY_RUN : WriteMode.COMMIT);
          return RemoveBrokerResponse.newBuilder()
              .setBroker(ProtoMapper.broker(removed))
              .setMetadataVersion(removed.version())
              .build();
        });
  }

  /** An optional {@code expected_version} as the precondition it states. */
  private static VersionMatch expected(boolean stated, long version) {
    return VersionMatch.stated(
        stated ? java.util.OptionalLong.of(version) : java.util.OptionalLong.empty());
  }

  /** A stream, a namespace's streams, a tenant (tenant.manage), or the cluster (operator only). */
  private void authorizeRebalance(RebalanceShardsRequest r) {
    if (r.getTenantId().isEmpty()) {
      if (!r.getNamespace().isEmpty() || !r.getStream().isEmpty()) {
        throw ControlPlaneException.validation(
            "tenant_id", "is required when namespace or stream is set");
      }
      auth.requireOperator();
    } else if (r.getNamespace().isEmpty()) {
      check("tenant_id", r.getTenantId());
      if (!r.getStream().isEmpty()) {
        throw ControlPlaneException.validation("namespace", "is required when stream is set");
      }
      auth.require(r.getTenantId(), Action.TENANT_MANAGE, RbacObject.tenant(r.getTenantId()));
    } else if (r.getStream().isEmpty()) {
      check("tenant_id", r.getTenantId());
      check("namespace", r.getNamespace());
      auth.require(
          r.getTenantId(),
          Action.STREAM_MANAGE,
          RbacObject.stream(r.getTenantId(), r.getNamespace(), RbacObject.WILDCARD));
    } else {
      requireStreamManage(ref(r.getTenantId(), r.getNamespace(), r.getStream()));
    }
  }

  private static StreamRef ref(String tenant, String namespace, String stream) {
    return new StreamRef(
        check("tenant_id", tenant), check("namespace", namespace), check("stream", stream));
  }

  private static String check(String field, String value) {
    if (!Names.isValid(value)) {
      throw ControlPlaneException.validation(field, "must be " + Names.RULE);
    }
    return value;
  }
}
