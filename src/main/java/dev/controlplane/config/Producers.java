package dev.controlplane.config;

import dev.controlplane.cluster.SingleNodeLeadership;
import dev.controlplane.metadata.codec.ResourceCodec;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

/** Beans built from plain classes that know nothing about CDI. */
@ApplicationScoped
public class Producers {

  @Inject ControlPlaneConfig config;

  @Produces
  @Singleton
  ResourceCodec codec() {
    return new ResourceCodec();
  }

  @Produces
  @Singleton
  SingleNodeLeadership singleNodeLeadership() {
    return new SingleNodeLeadership(config.nodeId());
  }
}
