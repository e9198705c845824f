package dev.controlplane.cluster;

import dev.controlplane.config.ClusterConfig;
import dev.controlplane.config.ControlPlaneConfig;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The node's {@link Leadership} bean. Until {@link #start()} it reports no leader; then it is a
 * {@link SingleNodeLeadership} when no cluster members are configured, else a {@link
 * RaftLeadership}.
 */
@ApplicationScoped
public class NodeLeadership implements Leadership {

  private static final Logger LOG = Logger.getLogger(NodeLeadership.class.getName());

  @Inject ControlPlaneConfig config;
  @Inject ClusterConfig cluster;
  @Inject ClusterMetrics metrics;

  @Resource(lookup = "jdbc/controlplane-direct")
  DataSource directDataSource;

  private volatile Leadership delegate = new SingleNodeLeadership("", "", "");
  private RaftLeadership raft;

  /**
   * Claims leadership (single node) or joins the Raft cluster; runs during application start.
   *
   * @param clusterTls TLS for the traffic between members, if configured
   * @param stop ends the process when the node finds it cannot serve (its database is not the
   *     cluster's), with the reason as the exception's message
   */
  public void start(
      java.util.Optional<javax.net.ssl.SSLContext> clusterTls,
      java.util.function.Consumer<RuntimeException> stop)
      throws Exception {
    TermStore terms = new TermStore(directDataSource);
    metrics.register(this);
    ClusterMembers members = cluster.members();
    if (members.isEmpty()) {
      SingleNodeLeadership single =
          new SingleNodeLeadership(
              config.nodeId(), config.advertisedHttp(), config.advertisedGrpc());
      single.lead(terms);
      delegate = single;
      metrics.termWon(single.term().orElse(0));
      LOG.info("node " + config.nodeId() + " leads alone in term " + single.term().orElse(0));
      return;
    }
    ClusterSettings settings =
        new ClusterSettings(
            config.nodeId(),
            config.advertisedHttp(),
            config.advertisedGrpc(),
            members,
            cluster.raftDataDir(),
            cluster.raftFailureTimeout(),
            clusterTls);
    raft = new RaftLeadership(settings, terms, metrics, terms.databaseIdentity(), stop);
    delegate = raft;
    try {
      raft.start();
    } catch (Exception e) {
      throw ClusterPortProblem.of(config.nodeId(), members.address(config.nodeId()), e)
          .orElseThrow(() -> e);
    }
  }

  public void stop() {
    if (raft != null) {
      raft.stop();
    }
  }

  @Override
  public OptionalLong term() {
    return delegate.term();
  }

  @Override
  public Optional<String> leaderId() {
    return delegate.leaderId();
  }

  @Override
  public Optional<String> leaderHttpAddress() {
    return delegate.leaderHttpAddress();
  }

  @Override
  public Optional<String> leaderGrpcAddress() {
    return delegate.leaderGrpcAddress();
  }

  @Override
  public long knownTerm() {
    return delegate.knownTerm();
  }

  @Override
  public Role role() {
    return delegate.role();
  }

  @Override
  public java.util.List<String> membersDisagreeing() {
    return delegate.membersDisagreeing();
  }

  @Override
  public java.util.List<String> membersOnOtherDatabase() {
    return delegate.membersOnOtherDatabase();
  }

  @Override
  public java.util.List<String> membersSharingAddresses() {
    return delegate.membersSharingAddresses();
  }
}
