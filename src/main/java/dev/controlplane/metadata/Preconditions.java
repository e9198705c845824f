package dev.controlplane.metadata;

import dev.controlplane.metadata.model.Resource;

/**
 * What the writes of every kind share when they compare the stored resource with the wanted one.
 */
public final class Preconditions {

  private Preconditions() {}

  static boolean sameContent(Resource a, Resource b) {
    return a.withVersion(0).equals(b.withVersion(0));
  }
}
