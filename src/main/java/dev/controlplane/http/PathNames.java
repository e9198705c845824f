package dev.controlplane.http;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.metadata.model.Names;

/** Path segments that name resources follow the same rule as documents. */
final class PathNames {

  private PathNames() {}

  static String check(String segment, String value) {
    if (!Names.isValid(value)) {
      throw ControlPlaneException.validation("path." + segment, "must be " + Names.RULE);
    }
    return value;
  }
}
