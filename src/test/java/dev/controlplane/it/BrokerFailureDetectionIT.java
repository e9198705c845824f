package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.it.support.Grpc;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.IsolatedServer;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.SilentLink;
import dev.controlplane.proto.v1.BrokerCapacity;
import dev.controlplane.proto.v1.HealthStatus;
import dev.controlplane.proto.v1.RegisterBrokerRequest;
import dev.controlplane.proto.v1.ReportHealthRequest;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Failure detection across an outage of the database: a node that could not record anybody's
 * heartbeats for longer than three heartbeat intervals does not then mark down the brokers that
 * kept trying, but gives each a fresh grace period, and goes on detecting the ones that really
 * stop. The node reaches PostgreSQL through a relay the test cuts (every connection closed, new
 * ones refused) and restores. Heartbeat interval 1 s: down after 3 s of silence.
 */
class BrokerFailureDetectionIT {

  private static final Duration SILENCE = SharedServer.HEARTBEAT.multipliedBy(3);

  @Test
  void aDatabaseOutageLongerThanThreeHeartbeatsMarksDownOnlyBrokersSilentAfterIt()
      throws Exception {
    String direct = IsolatedServer.database("trust");
    Matcher at = Pattern.compile("//127\\.0\\.0\\.1:(\\d+)/").matcher(direct);
    assertThat(at.find()).as(direct).isTrue();
    ScheduledExecutorService broker = Executors.newSingleThreadScheduledExecutor();
    AtomicBoolean beating = new AtomicBoolean(true);
    try (SilentLink link = new SilentLink(Integer.parseInt(at.group(1)));
        IsolatedServer node =
            IsolatedServer.start(
                "outage",
                Map.of(
                    "SERVICE_CONTROLPLANE_DB_URL",
                    at.replaceFirst("//127.0.0.1:" + link.port() + "/")));
        Grpc grpc = new Grpc(node.grpcPort(), SharedServer.BROKER_TOKEN)) {
      Http http = new Http(node.httpPort(), SharedServer.OPERATOR_TOKEN);
      grpc.brokers().registerBroker(registration());
      broker.scheduleAtFixedRate(
          () -> {
            if (beating.get()) {
              try {
                grpc.brokers().reportHealth(heartbeat());
              } catch (RuntimeException unavailable) {
                // During the outage: the broker keeps trying, as brokers do.
              }
            }
          },
          0,
          SharedServer.HEARTBEAT.toMillis(),
          TimeUnit.MILLISECONDS);
      Thread.sleep(2_500);
      long registered = http.get("/v1/brokers/outage-b1").version();

      link.cut();
      Thread.sleep(SILENCE.plusSeconds(2).toMillis());
      // The broker's next heartbeat comes a second after the node answers again: within the three
      // intervals of a fresh grace period, long after the node's first check (every 200 ms).
      beating.set(false);
      link.restore();
      Http.awaitStatus(() -> http.get("/health/ready").status(), 200, Duration.ofSeconds(30));
      Thread.sleep(SharedServer.HEARTBEAT.toMillis());
      beating.set(true);
      Thread.sleep(SILENCE.plusSeconds(1).toMillis());

      Http.Reply after = http.get("/v1/brokers/outage-b1");
      assertThat(after.json().path("spec").path("status").asText()).isEqualTo("active");
      assertThat(after.version())
          .as("marked down and back: judged for heartbeats nobody could record")
          .isEqualTo(registered);
      assertThat(node.process().logText()).contains("broker failure detection could not run for");

      beating.set(false);
      long stopped = System.nanoTime();
      Http.awaitStatus(
          () ->
              http.get("/v1/brokers/outage-b1")
                      .json()
                      .path("spec")
                      .path("status")
                      .asText()
                      .equals("down")
                  ? 200
                  : 0,
          200,
          SILENCE.plusSeconds(10));
      assertThat(Duration.ofNanos(System.nanoTime() - stopped))
          .as("a broker that stops after the outage is still marked down")
          .isGreaterThanOrEqualTo(SILENCE.minusSeconds(1));
    } finally {
      broker.shutdownNow();
    }
  }

  private static RegisterBrokerRequest registration() {
    return RegisterBrokerRequest.newBuilder()
        .setBrokerId("outage-b1")
        .setAddress("10.0.0.9:7000")
        .setCapacity(BrokerCapacity.newBuilder().setMaxShards(10))
        .build();
  }

  private static ReportHealthRequest heartbeat() {
    return ReportHealthRequest.newBuilder()
        .setBrokerId("outage-b1")
        .setStatus(HealthStatus.newBuilder().setHealthy(true).setUptimeSeconds(1))
        .build();
  }
}
