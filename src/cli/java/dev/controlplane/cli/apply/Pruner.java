package dev.controlplane.cli.apply;

import dev.controlplane.cli.client.ApiException;
import dev.controlplane.cli.resource.Kind;
import dev.controlplane.cli.resource.Lister;
import dev.controlplane.cli.resource.ResourceRef;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code apply --prune}: deletes what the files no longer declare, inside what they declare. In
 * every namespace a Namespace document declares, the streams no document declares; in every tenant
 * a Tenant document declares, the namespaces no document declares (a namespace that holds a
 * declared stream counts as declared), each after its streams. Tenants and brokers are never
 * pruned.
 */
public final class Pruner {

  private final Lister lister;

  public Pruner(Lister lister) {
    this.lister = lister;
  }

  /** What to delete, streams before their namespaces. */
  public List<ResourceRef> candidates(List<ApplyPlan.Item> applied) {
    Set<ResourceRef> declared = new LinkedHashSet<>();
    Set<ResourceRef> tenants = new LinkedHashSet<>();
    Set<ResourceRef> namespaces = new LinkedHashSet<>();
    for (ApplyPlan.Item item : applied) {
      ResourceRef ref = item.ref();
      declared.add(ref);
      ref.parent().ifPresent(declared::add);
      if (ref.kind() == Kind.TENANT) {
        tenants.add(ref);
      } else if (ref.kind() == Kind.NAMESPACE) {
        namespaces.add(ref);
      }
    }
    List<ResourceRef> out = new ArrayList<>();
    for (ResourceRef tenant : tenants) {
      for (String ns : names(Kind.NAMESPACE, tenant.name(), "")) {
        ResourceRef namespace = ResourceRef.namespace(tenant.name(), ns);
        if (!declared.contains(namespace)) {
          out.addAll(streams(namespace, declared));
          out.add(namespace);
        }
      }
    }
    for (ResourceRef namespace : namespaces) {
      out.addAll(streams(namespace, declared));
    }
    return out;
  }

  private List<ResourceRef> streams(ResourceRef namespace, Set<ResourceRef> declared) {
    return names(Kind.STREAM, namespace.tenant(), namespace.name()).stream()
        .map(s -> ResourceRef.of(Kind.STREAM, namespace.tenant(), namespace.name(), s))
        .filter(s -> !declared.contains(s))
        .toList();
  }

  /**
   * The names under a tenant or namespace; none when it does not exist. In a dry run that is every
   * parent the same apply declares new (it only pretended to create them); otherwise one deleted
   * since. Either way there is nothing in it to prune.
   */
  private List<String> names(Kind kind, String tenant, String namespace) {
    try {
      return lister.names(kind, tenant, namespace);
    } catch (ApiException e) {
      if (e.status() == 404) {
        return List.of();
      }
      throw e;
    }
  }
}
