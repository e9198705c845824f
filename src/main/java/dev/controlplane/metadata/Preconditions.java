package dev.controlplane.metadata;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.metadata.model.Resource;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Optimistic concurrency: a client that read version v may ask to write only if v is still current.
 */
public final class Preconditions {

  private Preconditions() {}

  public static void checkExpectedVersion(
      OptionalLong expected, Optional<? extends Resource> current) {
    if (expected.isEmpty()) {
      return;
    }
    long actual = current.map(Resource::version).orElse(0L);
    if (expected.getAsLong() != actual) {
      throw ControlPlaneException.conflict(
          "metadata.version " + expected.getAsLong() + " is not the current version " + actual);
    }
  }

  static boolean sameContent(Resource a, Resource b) {
    return a.withVersion(0).equals(b.withVersion(0));
  }
}
