package dev.controlplane.metadata.model;

/** A tenant: the root of the identity chain and the RBAC domain. */
public record Tenant(
    String name, String description, TenantQuotas quotas, Encryption encryption, long version)
    implements Resource {

  public Tenant {
    description = description == null ? "" : description;
    quotas = quotas == null ? TenantQuotas.NONE : quotas;
    encryption = encryption == null ? Encryption.NONE : encryption;
  }

  /** Quotas; a null value means not limited. */
  public record TenantQuotas(Long maxStreams, Long maxPublishRate, SizeValue maxStorage) {
    public static final TenantQuotas NONE = new TenantQuotas(null, null, null);
  }

  /** Encryption settings; a null value means not set. */
  public record Encryption(String keyId, DurationValue rotationPeriod) {
    public static final Encryption NONE = new Encryption(null, null);
  }

  @Override
  public ResourceKind kind() {
    return ResourceKind.TENANT;
  }

  @Override
  public String key() {
    return name;
  }

  @Override
  public Tenant withVersion(long newVersion) {
    return new Tenant(name, description, quotas, encryption, newVersion);
  }
}
