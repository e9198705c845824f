package dev.controlplane.metadata.log;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.ColumnTransformer;

@Entity
@Table(name = "metadata_updates")
class MetadataUpdateEntity {
  @Id long version;

  @Column(name = "update_type")
  String updateType;

  String kind;

  @Column(name = "resource_key")
  String resourceKey;

  @ColumnTransformer(write = "?::jsonb")
  String payload;

  @ColumnTransformer(write = "?::jsonb")
  String previous;

  long term;
}
