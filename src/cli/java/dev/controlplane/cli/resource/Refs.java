package dev.controlplane.cli.resource;

import dev.controlplane.cli.CliException;
import dev.controlplane.cli.Session;

/** Objects named on the command line, with the scope their kind needs. */
public final class Refs {

  private Refs() {}

  public static ResourceRef named(
      Session session, Kind kind, String tenant, String namespace, String name) {
    if (kind.inTenant() && tenant == null) {
      tenant = session.tenant(null);
    }
    if (kind.inNamespace() && namespace == null) {
      throw CliException.usage(
          "a " + kind.singular() + " lives in a namespace: give --namespace (-n)");
    }
    return ResourceRef.of(kind, tenant, namespace, name);
  }
}
