package dev.controlplane.metadata;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.metadata.store.ResourceStore;
import java.util.List;

/**
 * An empty list under a parent that does not exist is a 404 naming the parent (docs/api.md, Errors:
 * "unknown resource, parent or path"), over HTTP and gRPC alike: a mistyped tenant or namespace
 * would otherwise look like one with nothing in it. Only an empty page is checked, so a list that
 * has items costs no extra read.
 */
public final class Parents {

  private Parents() {}

  public static <T> List<T> ofTenant(ResourceStore store, String tenant, List<T> page) {
    if (page.isEmpty() && store.tenant(tenant).isEmpty()) {
      throw ControlPlaneException.notFound("tenant " + tenant + " does not exist");
    }
    return page;
  }

  public static <T> List<T> ofNamespace(
      ResourceStore store, String tenant, String namespace, List<T> page) {
    if (page.isEmpty() && store.namespace(tenant, namespace).isEmpty()) {
      ofTenant(store, tenant, page);
      throw ControlPlaneException.notFound(
          "namespace " + tenant + "/" + namespace + " does not exist");
    }
    return page;
  }
}
