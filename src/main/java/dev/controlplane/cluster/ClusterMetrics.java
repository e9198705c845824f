package dev.controlplane.cluster;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;

/**
 * Leadership metrics (Prometheus at {@code /metrics?scope=application}): the current fencing term
 * this node leads in, whether it leads, how often the known leader changed and this node won a
 * term, how many writes it refused because it was not the leader, and how many nodes it sees
 * configured with another member list.
 */
@ApplicationScoped
public class ClusterMetrics implements LeadershipEvents {

  @Inject MetricRegistry registry;

  private Counter leaderChanges;
  private Counter termsWon;
  private Counter writeRejections;

  void register(Leadership leadership) {
    leaderChanges =
        registry.counter(
            Metadata.builder()
                .withName("controlplane.leader.changes")
                .withDescription(
                    "Times this node saw the cluster's leader change (elections observed)")
                .build());
    termsWon =
        registry.counter(
            Metadata.builder()
                .withName("controlplane.leader.terms.won")
                .withDescription("Fencing terms this node recorded after winning an election")
                .build());
    writeRejections =
        registry.counter(
            Metadata.builder()
                .withName("controlplane.write.rejections")
                .withDescription(
                    "Writes refused because this node was not the leader or its term was stale")
                .build());
    registry.gauge(
        Metadata.builder()
            .withName("controlplane.leader.term")
            .withDescription("The fencing term this node leads in (0 when it does not lead)")
            .build(),
        leadership,
        l -> l.term().orElse(0));
    registry.gauge(
        Metadata.builder()
            .withName("controlplane.leader")
            .withDescription("1 when this node is the leader")
            .build(),
        leadership,
        l -> l.role() == Leadership.Role.LEADER ? 1 : 0);
    registry.gauge(
        Metadata.builder()
            .withName("controlplane.cluster.members.disagreeing")
            .withDescription(
                "Nodes in this node's cluster view configured with another member list"
                    + " (SERVICE_CONTROLPLANE_CLUSTER_MEMBERS) than this node's")
            .build(),
        leadership,
        l -> l.membersDisagreeing().size());
    registry.gauge(
        Metadata.builder()
            .withName("controlplane.cluster.members.other.database")
            .withDescription(
                "Nodes in this node's cluster view that use another database"
                    + " (SERVICE_CONTROLPLANE_DB_URL) than this node's")
            .build(),
        leadership,
        l -> l.membersOnOtherDatabase().size());
    registry.gauge(
        Metadata.builder()
            .withName("controlplane.cluster.members.sharing.addresses")
            .withDescription(
                "Nodes in this node's cluster view, this one included, that advertise the same"
                    + " SERVICE_CONTROLPLANE_ADVERTISED_HTTP or SERVICE_CONTROLPLANE_ADVERTISED_GRPC"
                    + " as another")
            .build(),
        leadership,
        l -> l.membersSharingAddresses().size());
  }

  @Override
  public void leaderChanged(String leader) {
    increment(leaderChanges);
  }

  @Override
  public void termWon(long term) {
    increment(termsWon);
  }

  public void writeRejected() {
    increment(writeRejections);
  }

  private static void increment(Counter counter) {
    if (counter != null) {
      counter.inc();
    }
  }
}
