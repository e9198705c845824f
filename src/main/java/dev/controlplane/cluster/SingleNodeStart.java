package dev.controlplane.cluster;

import dev.controlplane.config.ControlPlaneConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.logging.Logger;

/** Makes a node without cluster members its own leader, with a freshly claimed term. */
@ApplicationScoped
public class SingleNodeStart {

  private static final Logger LOG = Logger.getLogger(SingleNodeStart.class.getName());

  @Inject TermStore terms;
  @Inject SingleNodeLeadership leadership;
  @Inject ControlPlaneConfig config;

  public void lead() {
    long term = terms.claimNextTerm(config.nodeId());
    leadership.lead(term);
    LOG.info("node " + config.nodeId() + " leads alone in term " + term);
  }
}
