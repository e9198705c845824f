package dev.controlplane.config;

import dev.controlplane.metadata.codec.ResourceCodec;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** Beans built from plain classes that know nothing about CDI. */
@ApplicationScoped
public class Producers {

  @Produces
  @Singleton
  ResourceCodec codec() {
    return new ResourceCodec();
  }
}
