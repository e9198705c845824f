package dev.controlplane.metadata.model;

/** A namespace inside a tenant. */
public record Namespace(
    String tenant, String name, String description, NamespaceQuotas quotas, long version)
    implements Resource {

  public Namespace {
    description = description == null ? "" : description;
    quotas = quotas == null ? NamespaceQuotas.NONE : quotas;
  }

  /** Quotas; a null value means not limited. */
  public record NamespaceQuotas(Long maxStreams, Long maxPublishRate) {
    public static final NamespaceQuotas NONE = new NamespaceQuotas(null, null);
  }

  @Override
  public ResourceKind kind() {
    return ResourceKind.NAMESPACE;
  }

  @Override
  public String key() {
    return tenant + "/" + name;
  }

  @Override
  public Namespace withVersion(long newVersion) {
    return new Namespace(tenant, name, description, quotas, newVersion);
  }
}
