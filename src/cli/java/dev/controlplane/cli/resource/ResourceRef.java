package dev.controlplane.cli.resource;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/**
 * One object: its kind and identity ({@code tenant}, {@code namespace}, {@code name}; empty where
 * the kind has none). For a placement the name is the stream's.
 */
public record ResourceRef(Kind kind, String tenant, String namespace, String name) {

  public static ResourceRef tenant(String name) {
    return new ResourceRef(Kind.TENANT, "", "", name);
  }

  public static ResourceRef namespace(String tenant, String name) {
    return new ResourceRef(Kind.NAMESPACE, tenant, "", name);
  }

  public static ResourceRef of(Kind kind, String tenant, String namespace, String name) {
    return new ResourceRef(
        kind, kind.inTenant() ? tenant : "", kind.inNamespace() ? namespace : "", name);
  }

  /**
   * The identity a document names; missing {@code tenant} / {@code namespace} fields take the given
   * defaults (the command's {@code --tenant} / {@code --namespace}). Empty when the kind is
   * unknown; a missing name stays empty for the caller to report.
   */
  public static Optional<ResourceRef> ofDocument(
      JsonNode doc, String defaultTenant, String defaultNamespace) {
    Optional<Kind> kind = Kind.ofDocument(doc.path("kind").asText());
    if (kind.isEmpty()) {
      return Optional.empty();
    }
    JsonNode meta = doc.path("metadata");
    String name =
        meta.path(kind.get() == Kind.PLACEMENT ? "stream" : "name")
            .asText(meta.path("name").asText());
    return Optional.of(
        of(
            kind.get(),
            meta.path("tenant").asText(orEmpty(defaultTenant)),
            meta.path("namespace").asText(orEmpty(defaultNamespace)),
            name));
  }

  private static String orEmpty(String value) {
    return value == null ? "" : value;
  }

  /** The identity fields the kind needs but this reference lacks, for an error message. */
  public Optional<String> missingField() {
    if (name.isEmpty()) {
      return Optional.of("metadata.name");
    }
    if (kind.inTenant() && tenant.isEmpty()) {
      return Optional.of("metadata.tenant (or --tenant)");
    }
    if (kind.inNamespace() && namespace.isEmpty()) {
      return Optional.of("metadata.namespace (or --namespace)");
    }
    return Optional.empty();
  }

  /** The object's URL path in the HTTP API. */
  public String path() {
    return switch (kind) {
      case TENANT -> "/v1/tenants/" + name;
      case NAMESPACE -> "/v1/tenants/" + tenant + "/namespaces/" + name;
      case STREAM -> streamPath();
      case PLACEMENT -> streamPath() + "/placement";
      case BROKER -> "/v1/brokers/" + name;
      case BRIDGE -> "/v1/bridges/" + name;
    };
  }

  private String streamPath() {
    return "/v1/tenants/" + tenant + "/namespaces/" + namespace + "/streams/" + name;
  }

  /** The list path of {@code kind} in a tenant and namespace (ignored where the kind has none). */
  public static String listPath(Kind kind, String tenant, String namespace) {
    return switch (kind) {
      case TENANT -> "/v1/tenants";
      case NAMESPACE -> "/v1/tenants/" + tenant + "/namespaces";
      case STREAM -> "/v1/tenants/" + tenant + "/namespaces/" + namespace + "/streams";
      case PLACEMENT -> "/v1/tenants/" + tenant + "/namespaces/" + namespace + "/placements";
      case BROKER -> "/v1/brokers";
      case BRIDGE -> "/v1/bridges";
    };
  }

  /** The object that must exist first: a namespace's tenant, a stream's namespace. */
  public Optional<ResourceRef> parent() {
    return switch (kind) {
      case NAMESPACE -> Optional.of(tenant(tenant));
      case STREAM, PLACEMENT -> Optional.of(namespace(tenant, namespace));
      default -> Optional.empty();
    };
  }

  /** {@code tenant/acme}, {@code stream/acme/payments/orders}: how output names an object. */
  public String display() {
    StringBuilder out = new StringBuilder(kind.singular()).append('/');
    if (!tenant.isEmpty()) {
      out.append(tenant).append('/');
    }
    if (!namespace.isEmpty()) {
      out.append(namespace).append('/');
    }
    return out.append(name).toString();
  }

  @Override
  public String toString() {
    return display();
  }
}
