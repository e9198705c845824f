package dev.controlplane.grpc;

import dev.controlplane.broker.BrokerRegistry;
import dev.controlplane.config.ControlPlaneConfig;
import dev.controlplane.config.GrpcListenerConfig;
import dev.controlplane.config.SharedCredentials;
import dev.controlplane.error.PortUnavailableException;
import dev.controlplane.metadata.snapshot.SnapshotService;
import dev.controlplane.metadata.snapshot.SnapshotSlots;
import dev.controlplane.metadata.watch.WatchHub;
import dev.controlplane.proto.v1.AdminServiceGrpc;
import dev.controlplane.proto.v1.BrokerServiceGrpc;
import dev.controlplane.proto.v1.MetadataServiceGrpc;
import dev.controlplane.tls.TransportSecurity;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.ServerInterceptor;
import io.grpc.TlsServerCredentials;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.nio.NioEventLoopGroup;
import io.grpc.netty.shaded.io.netty.util.concurrent.DefaultThreadFactory;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.protobuf.services.ProtoReflectionServiceV1;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The gRPC listener. It owns its Netty event loops and executor (Liberty's would outlive an
 * undeploy) and serves the three controlplane.v1 services, grpc.health.v1 and reflection.
 */
public final class GrpcServer {

  private static final Logger LOG = Logger.getLogger(GrpcServer.class.getName());

  private final Server server;
  private final String address;
  private final HealthStatusManager health = new HealthStatusManager();
  private final EventLoopGroup boss;
  private final EventLoopGroup workers;
  private final RpcPool rpcPool;
  private final ConnectionLimit connections;
  private final SnapshotSlots snapshotSlots;
  private final ScheduledExecutorService checks;
  private final WatchHub hub;
  private final EncodedResources encoded;

  public GrpcServer(
      ControlPlaneConfig config,
      GrpcListenerConfig limits,
      ManagedThreadFactory threads,
      SnapshotService snapshots,
      WatchHub hub,
      BrokerRegistry brokers,
      AdminServices admin,
      TransportSecurity tls,
      SharedCredentials credentials) {
    // Plain daemon threads for the event loops: Liberty holds back managed threads created while
    // the application starts, and binding the port must happen during start.
    this.boss = new NioEventLoopGroup(1, new DefaultThreadFactory("grpc-boss", true));
    this.workers = new NioEventLoopGroup(2, new DefaultThreadFactory("grpc-worker", true));
    this.rpcPool = new RpcPool(threads, limits.queueLimit());
    this.connections =
        new ConnectionLimit(limits.maxConnections(), limits.maxConnectionsPerClient());
    this.snapshotSlots =
        new SnapshotSlots(
            config.snapshotMaxConcurrent(), config.watchStallTimeout(), rpcPool.executor());
    this.checks =
        Executors.newSingleThreadScheduledExecutor(new DefaultThreadFactory("grpc-checks", true));
    this.hub = hub;
    this.encoded = new EncodedResources(config.snapshotKeepEncoded());
    ServerInterceptor adminAuth = admin.authorizer();
    this.address = config.bindHost() + ":" + config.grpcPort();
    var guarded = Set.of(MetadataServiceGrpc.SERVICE_NAME, BrokerServiceGrpc.SERVICE_NAME);
    this.server =
        NettyServerBuilder.forAddress(
                new InetSocketAddress(config.bindHost(), config.grpcPort()), credentials(tls))
            .bossEventLoopGroup(boss)
            .workerEventLoopGroup(workers)
            .channelFactory(connections.listener())
            .executor(CallExecutors.INLINE)
            .callExecutor(new CallExecutors(rpcPool))
            .addStreamTracerFactory(new TransportThread(workers))
            // Pings from the node find a broker that vanished without closing its connection:
            // its watch would otherwise hold a stream and its buffers until TCP gives up.
            .keepAliveTime(limits.keepaliveTime().toNanos(), TimeUnit.NANOSECONDS)
            .keepAliveTimeout(limits.keepaliveTimeout().toNanos(), TimeUnit.NANOSECONDS)
            .permitKeepAliveTime(10, TimeUnit.SECONDS)
            .permitKeepAliveWithoutCalls(true)
            // Clients queue calls beyond it until one ends: a broker needs a handful.
            .maxConcurrentCallsPerConnection(limits.maxCallsPerConnection())
            .maxInboundMessageSize(4 * 1024 * 1024)
            .intercept(new AuditOriginInterceptor(guarded))
            .intercept(new FallbackCredentialCounter(credentials))
            .intercept(
                new BrokerCredentialInterceptor(credentials.broker(), guarded, tls.brokers()))
            .intercept(adminAuth)
            // Added last, so it runs first.
            .intercept(new RefusedCalls())
            .addService(
                MalformedRequests.guard(
                    new MetadataGrpcService(
                            snapshots, hub, config.snapshotChunkBytes(), snapshotSlots, encoded)
                        .bindService()))
            .addService(
                MalformedRequests.guard(
                    new BrokerGrpcService(brokers, config.heartbeatInterval()).bindService()))
            .addService(
                MalformedRequests.guard(admin.service().apply(rpcPool.admitting()).bindService()))
            .addService(MalformedRequests.guard(health.getHealthService().bindService()))
            .addService(
                MalformedRequests.guard(ProtoReflectionServiceV1.newInstance().bindService()))
            .addService(MalformedRequests.guard(v1alphaReflection().bindService()))
            .build();
  }

  /**
   * Encodes the loaded image for snapshots before the node reports ready, so that the first one
   * after a start copies bytes instead of running protobuf's serialisation with a cold JIT: for
   * 100,000 streams of 16 shards on 2 cores, 1.5-2.4 s more to start and a second less for that
   * snapshot, when brokers that fell behind are waiting for it.
   */
  private void encodeImage() {
    if (!encoded.keeps()) {
      LOG.info(
          "snapshots encode each resource as they send it"
              + " (SERVICE_CONTROLPLANE_SNAPSHOT_KEEP_ENCODED=false)");
      return;
    }
    long started = System.nanoTime();
    int count = encoded.fill(hub.image());
    LOG.info(
        "encoded the image's "
            + count
            + " resources for snapshots in "
            + (System.nanoTime() - started) / 1_000_000
            + " ms");
  }

  /**
   * TLS from the node's reloading key manager; with mutual TLS, client certificates are requested
   * and verified against the broker CA but not required by the handshake, so admin clients with a
   * bearer token need none: the broker services demand one ({@link BrokerCredentialInterceptor}).
   */
  static ServerCredentials credentials(TransportSecurity tls) {
    if (!tls.enabled()) {
      return InsecureServerCredentials.create();
    }
    var builder = TlsServerCredentials.newBuilder().keyManager(tls.keyManager());
    tls.trustManager()
        .ifPresent(
            trust ->
                builder.trustManager(trust).clientAuth(TlsServerCredentials.ClientAuth.OPTIONAL));
    return builder.build();
  }

  /**
   * Reflection v1alpha as well as v1: grpcurl builds before 1.9, Postman and many other tools ask
   * only for v1alpha. grpc-java deprecates the class (v1 is the standard) but still ships it.
   */
  @SuppressWarnings("deprecation")
  private static io.grpc.BindableService v1alphaReflection() {
    return io.grpc.protobuf.services.ProtoReflectionService.newInstance();
  }

  public void start() {
    encodeImage();
    try {
      server.start();
    } catch (IOException e) {
      // server.getPort() only answers once started; name the configured address instead.
      throw new PortUnavailableException(
          "cannot listen for gRPC on "
              + address
              + " (SERVICE_CONTROLPLANE_GRPC_PORT): "
              + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage()),
          e);
    }
    health.setStatus("", ServingStatus.SERVING);
    checks.scheduleWithFixedDelay(
        () -> safely("checking for stalled snapshots", snapshotSlots::cutOffStalled),
        100,
        100,
        TimeUnit.MILLISECONDS);
    checks.scheduleWithFixedDelay(
        () -> safely("checking the change log", this::reportChangeLog), 1, 1, TimeUnit.SECONDS);
    LOG.info("gRPC listening on " + server.getListenSockets());
  }

  /**
   * AdminService, given the server's RPC pool, and the interceptor that authorizes it, built from
   * the domain services they call.
   */
  public record AdminServices(
      Function<Executor, AdminServiceGrpc.AdminServiceImplBase> service,
      ServerInterceptor authorizer) {}

  public static AdminServices admin(
      SharedCredentials credentials,
      dev.controlplane.auth.ServiceTokens tokens,
      dev.controlplane.metadata.StreamService streams,
      dev.controlplane.metadata.StreamQueries queries,
      dev.controlplane.broker.rebalance.RebalanceService rebalancer,
      dev.controlplane.broker.ShardLeadership leadership,
      BrokerRegistry brokers,
      dev.controlplane.metadata.codec.ResourceCodec codec) {
    var auth = new AdminAuthorizer(tokens, credentials.operator(), AdminServiceGrpc.SERVICE_NAME);
    return new AdminServices(
        rpcPool ->
            new AdminGrpcService(
                rpcPool, auth, streams, queries, rebalancer, leadership, brokers, codec),
        auth);
  }

  /** The RPC threads' load and refusals, for the metrics. */
  public RpcPool rpcPool() {
    return rpcPool;
  }

  /** The connections open and refused, for the metrics. */
  public ConnectionLimit connections() {
    return connections;
  }

  /** The snapshots being sent and waiting, for the metrics. */
  public SnapshotSlots snapshotSlots() {
    return snapshotSlots;
  }

  /**
   * NOT_SERVING while this node cannot read the change log (as its HTTP readiness), so that a
   * broker's health-checking balancer watches another node: its watchers would get nothing newer.
   * After {@link #stop} the health manager ignores it.
   */
  private void reportChangeLog() {
    health.setStatus(
        "", hub.unreadableLog().isPresent() ? ServingStatus.NOT_SERVING : ServingStatus.SERVING);
  }

  private static void safely(String what, Runnable task) {
    try {
      task.run();
    } catch (RuntimeException e) {
      // A scheduled task that throws is never run again.
      LOG.log(Level.WARNING, what + " failed", e);
    }
  }

  public int port() {
    return server.getPort();
  }

  public void stop() {
    health.enterTerminalState();
    server.shutdown();
    try {
      if (!server.awaitTermination(5, TimeUnit.SECONDS)) {
        server.shutdownNow();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      server.shutdownNow();
    }
    checks.shutdownNow();
    rpcPool.executor().shutdownNow();
    workers.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    boss.shutdownGracefully(0, 1, TimeUnit.SECONDS);
  }
}
