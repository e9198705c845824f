package dev.controlplane.grpc;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;

/** How busy the gRPC RPC threads are, how much waits for them, and the calls refused. */
@ApplicationScoped
public class RpcPoolMetrics {

  @Inject MetricRegistry registry;

  public void register(RpcPool pool) {
    registry.gauge(
        Metadata.builder()
            .withName("controlplane.grpc.pool.busy")
            .withDescription("gRPC RPC threads running a task (of " + RpcPool.THREADS + ")")
            .build(),
        pool,
        RpcPool::busy);
    registry.gauge(
        Metadata.builder()
            .withName("controlplane.grpc.queue.depth")
            .withDescription("Tasks of gRPC calls waiting for one of the RPC threads")
            .build(),
        pool,
        RpcPool::waiting);
    Counter refused =
        registry.counter(
            Metadata.builder()
                .withName("controlplane.grpc.queue.refused")
                .withDescription(
                    "gRPC calls refused at once with UNAVAILABLE because too many tasks waited"
                        + " for the RPC threads (SERVICE_CONTROLPLANE_GRPC_QUEUE_LIMIT)")
                .build());
    pool.countRefusals(refused::inc);
  }
}
