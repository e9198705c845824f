package dev.controlplane.grpc;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;

/**
 * How busy the gRPC RPC threads are, how much waits for them, the calls refused, and the
 * connections open and refused.
 */
@ApplicationScoped
public class GrpcLoadMetrics {

  @Inject MetricRegistry registry;

  public void register(RpcPool pool, ConnectionLimit connections) {
    registry.gauge(
        Metadata.builder()
            .withName("controlplane.grpc.connections")
            .withDescription("gRPC connections open on this node")
            .build(),
        connections,
        ConnectionLimit::open);
    Counter refusedConnections =
        registry.counter(
            Metadata.builder()
                .withName("controlplane.grpc.connections.refused")
                .withDescription(
                    "gRPC connections closed as they were accepted because"
                        + " SERVICE_CONTROLPLANE_GRPC_MAX_CONNECTIONS were open")
                .build());
    registry.gauge(
        Metadata.builder()
            .withName("controlplane.grpc.clients")
            .withDescription("Client addresses with a gRPC connection open on this node")
            .build(),
        connections,
        ConnectionLimit::clients);
    Counter refusedPerClient =
        registry.counter(
            Metadata.builder()
                .withName("controlplane.grpc.connections.refused.per.client")
                .withDescription(
                    "gRPC connections closed as they were accepted because their client address"
                        + " had SERVICE_CONTROLPLANE_GRPC_MAX_CONNECTIONS_PER_CLIENT open")
                .build());
    connections.countRefusals(refusedConnections::inc, refusedPerClient::inc);
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
