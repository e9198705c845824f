package dev.controlplane;

import dev.controlplane.audit.AuditRetention;
import dev.controlplane.auth.KekRotation;
import dev.controlplane.auth.KeyRotation;
import dev.controlplane.bootstrap.BootstrapService;
import dev.controlplane.broker.BrokerRegistry;
import dev.controlplane.broker.FailureDetector;
import dev.controlplane.cluster.LeaderDuties;
import dev.controlplane.cluster.NodeLeadership;
import dev.controlplane.config.AuthConfig;
import dev.controlplane.config.ClusterConfig;
import dev.controlplane.config.ControlPlaneConfig;
import dev.controlplane.config.FileConfigSource;
import dev.controlplane.config.GrpcListenerConfig;
import dev.controlplane.config.SettingProblems;
import dev.controlplane.config.SharedCredentials;
import dev.controlplane.config.TlsConfig;
import dev.controlplane.config.UnknownVariables;
import dev.controlplane.db.SchemaMigrations;
import dev.controlplane.error.PortUnavailableException;
import dev.controlplane.grpc.GrpcLoadMetrics;
import dev.controlplane.grpc.GrpcServer;
import dev.controlplane.http.BootstrapListener;
import dev.controlplane.http.HttpListenerCheck;
import dev.controlplane.http.ListenerIdentity;
import dev.controlplane.metadata.StreamService;
import dev.controlplane.metadata.log.RetentionTrimmer;
import dev.controlplane.metadata.snapshot.SnapshotMetrics;
import dev.controlplane.metadata.snapshot.SnapshotService;
import dev.controlplane.metadata.watch.ChangeNotificationListener;
import dev.controlplane.metadata.watch.WatchHub;
import dev.controlplane.tls.TransportSecurity;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.BeforeDestroyed;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Starts the service in dependency order — settings, schema, leadership, change delivery (the watch
 * hub and its image), the write pipeline, leader duties, gRPC, then a check of the HTTP listener —
 * and stops it in reverse, after first ending the open watches (they tell brokers to resume on
 * another node, and the gRPC server's grace period then waits for none) and giving up leadership
 * (the others elect a successor meanwhile); on SIGTERM those two happen as the signal arrives,
 * before Liberty's wait for its requests. If any step fails the process exits ({@link FatalStop}),
 * so that a supervisor sees a failed start instead of a server that answers without its
 * application.
 */
@ApplicationScoped
public class ServiceLifecycle {

  private static final Logger LOG = Logger.getLogger(ServiceLifecycle.class.getName());

  @Inject ControlPlaneConfig config;
  @Inject ClusterConfig clusterConfig;
  @Inject GrpcListenerConfig grpcConfig;
  @Inject NodeLeadership leadership;
  @Inject WatchHub hub;
  @Inject SnapshotService snapshots;
  @Inject SnapshotMetrics snapshotMetrics;
  @Inject GrpcLoadMetrics grpcLoadMetrics;
  @Inject BrokerRegistry brokers;
  @Inject FailureDetector failureDetector;
  @Inject RetentionTrimmer retention;
  @Inject AuditRetention auditRetention;
  @Inject StreamService streams;
  @Inject StartupState state;
  @Inject dev.controlplane.metadata.StreamQueries streamQueries;
  @Inject dev.controlplane.broker.rebalance.RebalanceService rebalancer;
  @Inject dev.controlplane.broker.ShardLeadership shardLeadership;
  @Inject dev.controlplane.metadata.codec.ResourceCodec codec;
  @Inject dev.controlplane.auth.ServiceTokens serviceTokens;
  @Inject AuthConfig authConfig;
  @Inject TlsConfig tlsConfig;
  @Inject SharedCredentials credentials;
  @Inject KeyRotation keyRotation;
  @Inject KekRotation kekRotation;
  @Inject BootstrapService bootstrapService;
  @Inject dev.controlplane.write.WritePipeline pipeline;
  @Inject dev.controlplane.cache.TenantChanges tenantChanges;
  @Inject ListenerIdentity listenerIdentity;

  @Resource ManagedThreadFactory threads;

  @Resource(lookup = "jdbc/controlplane-direct")
  DataSource directDataSource;

  private ChangeNotificationListener listener;
  private LeaderDuties duties;
  private GrpcServer grpc;
  private BootstrapListener bootstrap;
  private TransportSecurity tls;
  private Thread onSignal;
  private boolean handedOver;

  void start(@Observes @Initialized(ApplicationScoped.class) Object event) {
    try {
      FileConfigSource.requireValid();
      SettingProblems problems = new SettingProblems();
      FileConfigSource.reportEntries(problems);
      config.validate(problems);
      grpcConfig.validate(problems);
      clusterConfig.validate(problems);
      authConfig.validate(problems);
      problems.check(
          () -> authConfig.requireBootstrapPortApart(config.httpPort(), config.grpcPort()));
      tlsConfig.validate(problems);
      credentials.validate(problems);
      problems.throwIfAny();
      requireListenerPortsFree();
      UnknownVariables.in(System.getenv()).forEach(LOG::warning);
      tls = TransportSecurity.open(tlsConfig.settings());
      warnAboutMissingCredentials();
      new SchemaMigrations(directDataSource).prepare(config.dbMigrate());
      kekRotation.checkAtStart();
      state.schemaValid();
      startLeadership();
      hub.start();
      pipeline.start(hub);
      listener =
          new ChangeNotificationListener(
              ChangeNotificationListener.connector(config),
              hub,
              tenantChanges,
              () -> leadership.term().isPresent());
      listener.start(threads);
      duties = new LeaderDuties(leadership, threads);
      duties.every(
          failureDetector.checkPeriod(), "broker failure detection", failureDetector::check);
      duties.every(config.retentionCheckInterval(), "change-log retention", retention::trim);
      duties.every(config.retentionCheckInterval(), "audit retention", auditRetention::purge);
      duties.every(config.streamPurgeInterval(), "stream purge", () -> streams.purgeExpired(100));
      var admin =
          GrpcServer.admin(
              credentials,
              serviceTokens,
              streams,
              streamQueries,
              rebalancer,
              shardLeadership,
              brokers,
              codec);
      duties.every(
          authConfig.keyRotationCheckInterval(), "signing key rotation", keyRotation::advance);
      kekRotation.register();
      duties.every(
          authConfig.keyRotationCheckInterval(),
          "signing key re-encryption",
          kekRotation::reencryptStale);
      grpc =
          new GrpcServer(
              config, grpcConfig, threads, snapshots, hub, brokers, admin, tls, credentials);
      snapshotMetrics.register(grpc.snapshotSlots());
      grpcLoadMetrics.register(grpc.rpcPool(), grpc.connections());
      grpc.start();
      startBootstrap();
      tls.warnAboutSettings(config.brokerToken().isPresent());
      state.started();
      keepLoggingThroughShutdown();
      handOverOnSignal();
      checkHttpListener();
      LOG.info("control plane node " + config.nodeId() + " started");
    } catch (RuntimeException e) {
      leadership.stop();
      FatalStop.because(e);
      throw new FatalStop.Aborted(e.getMessage());
    }
  }

  /** Every listener the node opens, tried before anything starts. */
  private void requireListenerPortsFree() {
    PortsInUse ports =
        new PortsInUse()
            .addLibertys(
                "HTTP",
                new java.net.InetSocketAddress(config.bindHost(), config.httpPort()),
                "SERVICE_CONTROLPLANE_HTTP_PORT")
            .add(
                "gRPC",
                new java.net.InetSocketAddress(config.bindHost(), config.grpcPort()),
                "SERVICE_CONTROLPLANE_GRPC_PORT");
    var members = clusterConfig.members();
    if (!members.isEmpty()) {
      ports.add(
          "the cluster",
          members.address(config.nodeId()),
          "node " + config.nodeId() + "'s address in SERVICE_CONTROLPLANE_CLUSTER_MEMBERS");
    }
    if (authConfig.bootstrapEnabled()) {
      authConfig
          .bootstrapAddress()
          .ifPresent(address -> ports.add("bootstrap", address, "SERVICE_BOOTSTRAP_BIND_ADDR"));
    }
    ports.requireNone();
  }

  /**
   * Not fatal (a node may serve only one kind of client), but nobody may be locked out unknowingly.
   */
  private void warnAboutMissingCredentials() {
    if (config.operatorToken().isEmpty()) {
      LOG.warning(
          "SERVICE_CONTROLPLANE_OPERATOR_TOKEN is not set: only tenants' service tokens can"
              + " administer, and GET /v1/tenants is refused to everybody but brokers");
    }
    if (config.brokerToken().isEmpty() && !tls.settings().mtlsEnabled()) {
      LOG.warning(
          "SERVICE_CONTROLPLANE_BROKER_TOKEN is not set: every broker RPC (RegisterBroker,"
              + " ReportHealth, GetSnapshot, WatchUpdates) is refused with UNAUTHENTICATED");
    }
  }

  /** Ends the process if the HTTP port turns out not to be this node's (Liberty carries on). */
  private void checkHttpListener() {
    new HttpListenerCheck(
            config.advertisedHost(),
            config.httpPort(),
            listenerIdentity.token(),
            "SERVICE_CONTROLPLANE_HTTP_PORT",
            tls.selfCheckContext(),
            problem -> {
              state.stopping();
              FatalStop.because(new PortUnavailableException(problem, null));
            })
        .start();
  }

  /** The bootstrap listener exists only when enabled: no socket at all otherwise. */
  private void startBootstrap() {
    if (!authConfig.bootstrapEnabled()) {
      return;
    }
    java.net.InetSocketAddress bindAddr = authConfig.bootstrapAddress().orElseThrow();
    try {
      bootstrap =
          new BootstrapListener(
              bindAddr,
              authConfig.bootstrapToken().orElseThrow(),
              bootstrapService,
              threads,
              tls.bootstrapContext());
    } catch (java.io.UncheckedIOException e) {
      throw new PortUnavailableException(
          e.getMessage() + " (SERVICE_BOOTSTRAP_BIND_ADDR): " + e.getCause().getMessage(), e);
    }
    bootstrap.start();
  }

  /**
   * java.util.logging resets itself in a JVM shutdown hook of its own, which runs beside the
   * others: what the node logged while it stopped on SIGTERM (the hand-over, a write batch it
   * canceled) went nowhere. Liberty's log manager can refuse that reset; Liberty's own messages do
   * not go through it.
   */
  private static void keepLoggingThroughShutdown() {
    java.util.logging.LogManager manager = java.util.logging.LogManager.getLogManager();
    try {
      manager.getClass().getMethod("disableReset").invoke(manager);
    } catch (ReflectiveOperationException | RuntimeException e) {
      // Not Liberty's log manager (a test harness): the JDK's reset stays.
    }
  }

  /**
   * On SIGTERM Liberty first waits, up to 30 s, for the HTTP requests it is serving (one slow
   * client is enough), and stops the application only after that. A leader must not lead through
   * that wait: its HTTP port is closed, so clients told to write to it find nobody. JVM shutdown
   * hooks run when the signal arrives, alongside Liberty's own.
   */
  private void handOverOnSignal() {
    onSignal = new Thread(this::handOver, "controlplane-signal");
    Runtime.getRuntime().addShutdownHook(onSignal);
  }

  /**
   * Ends the open watches (brokers resume on another node) and gives up leadership, once; a second
   * caller waits for the first. Leadership goes before everything else: the others elect a
   * successor while this node finishes stopping. Writes still in this node's pipeline are fenced
   * off by the successor's term, as after any change of leader; the pipeline stops here too, so
   * that a batch waiting for a stalled database is abandoned after a moment instead of holding
   * Liberty's wait for the HTTP requests (and so the node's stop) for 30 s or more.
   */
  private synchronized void handOver() {
    if (handedOver) {
      return;
    }
    handedOver = true;
    state.stopping();
    hub.closeWatches();
    leadership.stop();
    pipeline.stop();
  }

  void stop(@Observes @BeforeDestroyed(ApplicationScoped.class) Object event) {
    if (onSignal != null) {
      try {
        Runtime.getRuntime().removeShutdownHook(onSignal);
      } catch (IllegalStateException jvmExiting) {
        // The hook has run or is running; handOver waits for it.
      }
    }
    handOver();
    if (bootstrap != null) {
      bootstrap.stop();
    }
    if (tls != null) {
      tls.close();
    }
    if (grpc != null) {
      grpc.stop();
    }
    if (duties != null) {
      duties.stop();
    }
    if (listener != null) {
      listener.stop();
    }
    pipeline.stop();
    hub.stop();
  }

  private void startLeadership() {
    try {
      leadership.start(
          tls.clusterContext(),
          problem -> {
            state.stopping();
            FatalStop.because(problem);
          });
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("cannot start leader election: " + e.getMessage(), e);
    }
  }
}
