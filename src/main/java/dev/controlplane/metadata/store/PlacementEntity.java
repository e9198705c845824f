package dev.controlplane.metadata.store;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import org.hibernate.annotations.ColumnTransformer;

/** The placement of one stream; the shard list is a JSON array (see the migration). */
@Entity
@Table(name = "shard_placements")
@IdClass(PlacementEntity.Key.class)
class PlacementEntity {
  @Id String tenant;
  @Id String namespace;
  @Id String stream;

  @ColumnTransformer(write = "?::jsonb")
  String placements;

  long version;

  /** Composite primary key. */
  public static class Key implements Serializable {
    String tenant;
    String namespace;
    String stream;

    public Key() {}

    Key(String tenant, String namespace, String stream) {
      this.tenant = tenant;
      this.namespace = namespace;
      this.stream = stream;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k
          && java.util.Objects.equals(tenant, k.tenant)
          && java.util.Objects.equals(namespace, k.namespace)
          && java.util.Objects.equals(stream, k.stream);
    }

    @Override
    public int hashCode() {
      return java.util.Objects.hash(tenant, namespace, stream);
    }
  }
}
