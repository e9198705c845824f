package dev.controlplane.it.support;

import dev.controlplane.proto.v1.HealthStatus;
import dev.controlplane.proto.v1.RegisterBrokerRequest;
import dev.controlplane.proto.v1.ReportHealthRequest;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Brokers of one test class on the shared server (or another node): registered (each in a zone of
 * its own) and kept active by a heartbeat every 300 ms until closed; then failure detection marks
 * them down. On the shared server, closing waits until it has: marking a broker down is a versioned
 * write the server makes on its own, and it must not land inside a later test that checks that
 * nothing was written.
 */
public final class LiveBrokers implements AutoCloseable {

  private final Grpc grpc;
  private final boolean sharedServer;
  private final List<String> names;
  private final ScheduledExecutorService beats = Executors.newSingleThreadScheduledExecutor();

  public LiveBrokers(String... names) {
    this(Grpc.shared(), true, names);
  }

  /**
   * The brokers on the node {@code grpc} reaches (its leader); closing them closes {@code grpc}.
   */
  public LiveBrokers(Grpc grpc, String... names) {
    this(grpc, false, names);
  }

  private LiveBrokers(Grpc grpc, boolean sharedServer, String... names) {
    this.grpc = grpc;
    this.sharedServer = sharedServer;
    this.names = List.of(names);
    for (int i = 0; i < names.length; i++) {
      grpc.brokers()
          .registerBroker(
              RegisterBrokerRequest.newBuilder()
                  .setBrokerId(names[i])
                  .setAddress("127.0.0.1:" + (7400 + i))
                  .putMetadata("availability_zone", "zone-" + i)
                  .build());
    }
    beats.scheduleAtFixedRate(this::beat, 0, 300, TimeUnit.MILLISECONDS);
  }

  private void beat() {
    for (String name : names) {
      try {
        grpc.brokers()
            .reportHealth(
                ReportHealthRequest.newBuilder()
                    .setBrokerId(name)
                    .setStatus(HealthStatus.newBuilder().setHealthy(true))
                    .build());
      } catch (RuntimeException ignored) {
        // the next beat goes on
      }
    }
  }

  @Override
  public void close() throws Exception {
    beats.shutdownNow();
    beats.awaitTermination(5, TimeUnit.SECONDS);
    grpc.close();
    if (sharedServer) {
      TestDatabase.awaitBrokersDown(names);
    }
  }
}
