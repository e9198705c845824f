package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.controlplane.it.support.ElectionCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A node started with another node's SERVICE_CONTROLPLANE_ADVERTISED_HTTP (a configuration copied
 * from it): followers would send clients for it, when it leads, to the other node. Every node names
 * both, and all is clear once the setting is corrected. The product's election layer in real JVMs
 * ({@link dev.controlplane.it.support.ElectionNode}).
 */
class AdvertisedAddressIT {

  private static final Duration WITHIN = Duration.ofSeconds(15);

  @Test
  void nodesAdvertisingOneAddressAreNamedByEveryNodeUntilCorrected() throws Exception {
    try (ElectionCluster cluster = ElectionCluster.create("advertised", 3)) {
      cluster.set("cp2", "ADVERTISED_HTTP", cluster.httpUrl("cp1"));
      for (String id : cluster.ids()) {
        cluster.start(id);
      }
      for (String id : cluster.ids()) {
        awaitSharing(cluster, id, List.of("cp1", "cp2"));
      }
      assertThat(log(cluster, "cp3"))
          .contains("nodes [cp1, cp2] advertise the same SERVICE_CONTROLPLANE_ADVERTISED_HTTP.");
      assertThat(log(cluster, "cp2"))
          .contains(
              "nodes [cp1, cp2] advertise the same SERVICE_CONTROLPLANE_ADVERTISED_HTTP (this"
                  + " node's: '"
                  + cluster.httpUrl("cp1")
                  + "' and '");
      assertThat(awaitLeader(cluster))
          .as("reported, not refused: %s", cluster.describe())
          .isPresent();

      cluster.kill("cp2");
      cluster.set("cp2", "ADVERTISED_HTTP", cluster.httpUrl("cp2"));
      cluster.start("cp2");
      for (String id : cluster.ids()) {
        awaitSharing(cluster, id, List.of());
      }
      assertThat(log(cluster, "cp3"))
          .contains("every node in the view advertises addresses of its own");
    }
  }

  private static String log(ElectionCluster cluster, String id) {
    return cluster.logText(id);
  }

  private static void awaitSharing(ElectionCluster cluster, String id, List<String> expected)
      throws InterruptedException {
    long deadline = System.nanoTime() + WITHIN.toNanos();
    List<String> seen = null;
    while (System.nanoTime() < deadline) {
      Optional<JsonNode> status = cluster.status(id);
      if (status.isPresent()) {
        List<String> now = new ArrayList<>();
        status.get().path("members_sharing_addresses").forEach(n -> now.add(n.asText()));
        if (now.equals(expected)) {
          return;
        }
        seen = now;
      }
      Thread.sleep(100);
    }
    throw new AssertionError(
        id + " names " + seen + " as sharing addresses, not " + expected + ": " + log(cluster, id));
  }

  private static Optional<String> awaitLeader(ElectionCluster cluster) throws InterruptedException {
    long deadline = System.nanoTime() + WITHIN.toNanos();
    while (System.nanoTime() < deadline) {
      Optional<String> leader = cluster.agreedLeader();
      if (leader.isPresent()) {
        return leader;
      }
      Thread.sleep(100);
    }
    return Optional.empty();
  }
}
