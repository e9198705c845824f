package dev.controlplane.grpc;

import dev.controlplane.proto.v1.AdminServiceGrpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallExecutorSupplier;
import io.grpc.health.v1.HealthGrpc;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;

/**
 * Where each call's callbacks run. Most RPCs may read the database or wait for a write, so they run
 * on the RPC pool. The few listed here never block: they run on their connection's event loop,
 * where the request arrived, and skip the hand-off to a pool thread: a wake-up and a context switch
 * per call, about a fifth of the node's CPU per {@code CreateStream} under load
 * (docs/benchmarks.md). A listed RPC that finds it must read after all moves itself to the pool.
 *
 * <p>The server's default executor runs inline: grpc-java looks the method up on it before asking
 * this supplier, so a pool there would cost the hand-off anyway.
 *
 * <p>A call bound for the pool while too many wait for it is refused ({@link RpcPool}): it runs on
 * its event loop too, only as far as {@link RefusedCalls}, which ends it.
 */
final class CallExecutors implements ServerCallExecutorSupplier {

  static final Executor INLINE = Runnable::run;

  /** Health checks among them: an orchestrator's probe must not fail because writers queue. */
  private static final Set<String> ON_EVENT_LOOP =
      Set.of(
          AdminServiceGrpc.getCreateStreamMethod().getFullMethodName(),
          HealthGrpc.getCheckMethod().getFullMethodName(),
          HealthGrpc.getWatchMethod().getFullMethodName());

  private final RpcPool rpcPool;

  CallExecutors(RpcPool rpcPool) {
    this.rpcPool = rpcPool;
  }

  @Override
  public <Q, R> Executor getExecutor(ServerCall<Q, R> call, Metadata headers) {
    RefusedCalls.clear(headers);
    if (ON_EVENT_LOOP.contains(call.getMethodDescriptor().getFullMethodName())) {
      return INLINE;
    }
    Optional<String> refusal = rpcPool.refusal();
    if (refusal.isPresent()) {
      RefusedCalls.refuse(headers, refusal.get());
      return INLINE;
    }
    return rpcPool.executor();
  }
}
