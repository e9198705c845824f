package dev.controlplane.cli.resource;

import com.fasterxml.jackson.databind.JsonNode;
import dev.controlplane.cli.client.ApiClient;
import java.util.ArrayList;
import java.util.List;

/**
 * Every object of a kind in a scope, paged through: one namespace, every namespace of a tenant
 * (when no namespace is given), or every tenant ({@code allTenants}, which needs a platform
 * credential).
 */
public final class Lister {

  private final ApiClient api;
  private final int pageSize;

  public Lister(ApiClient api) {
    this(api, Pager.PAGE_SIZE);
  }

  public Lister(ApiClient api, int pageSize) {
    this.api = api;
    this.pageSize = pageSize;
  }

  public List<JsonNode> list(Kind kind, String tenant, String namespace, boolean allTenants) {
    if (!kind.inTenant()) {
      return Pager.all(api, ResourceRef.listPath(kind, "", ""), tenant, pageSize);
    }
    List<JsonNode> out = new ArrayList<>();
    for (String t : allTenants ? names(Kind.TENANT, "", "") : List.of(tenant)) {
      if (kind == Kind.NAMESPACE) {
        out.addAll(Pager.all(api, ResourceRef.listPath(kind, t, ""), t, pageSize));
        continue;
      }
      List<String> namespaces =
          namespace != null && !allTenants ? List.of(namespace) : names(Kind.NAMESPACE, t, "");
      for (String n : namespaces) {
        out.addAll(Pager.all(api, ResourceRef.listPath(kind, t, n), t, pageSize));
      }
    }
    return out;
  }

  /** The names of every object of {@code kind} in a tenant and namespace. */
  public List<String> names(Kind kind, String tenant, String namespace) {
    return Pager.all(api, ResourceRef.listPath(kind, tenant, namespace), tenant).stream()
        .map(d -> d.path("metadata").path("name").asText())
        .toList();
  }
}
