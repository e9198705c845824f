package dev.controlplane.metadata.store;

import dev.controlplane.metadata.model.Namespace;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;

@Entity
@Table(name = "namespaces")
@IdClass(NamespaceEntity.Key.class)
class NamespaceEntity {
  @Id String tenant;
  @Id String name;
  String description;

  @Column(name = "max_streams")
  Long maxStreams;

  @Column(name = "max_publish_rate")
  Long maxPublishRate;

  long version;

  /** Composite primary key. */
  public static class Key implements Serializable {
    String tenant;
    String name;

    public Key() {}

    Key(String tenant, String name) {
      this.tenant = tenant;
      this.name = name;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k
          && java.util.Objects.equals(tenant, k.tenant)
          && java.util.Objects.equals(name, k.name);
    }

    @Override
    public int hashCode() {
      return java.util.Objects.hash(tenant, name);
    }
  }

  Namespace toResource() {
    return new Namespace(
        tenant,
        name,
        description,
        new Namespace.NamespaceQuotas(maxStreams, maxPublishRate),
        version);
  }
}
