package dev.controlplane.metadata.store;

import dev.controlplane.metadata.model.DurationValue;
import dev.controlplane.metadata.model.SizeValue;
import dev.controlplane.metadata.model.Tenant;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

@Entity
@Table(name = "tenants")
class TenantEntity {
  @Id String name;
  String description;

  @Column(name = "max_streams")
  Long maxStreams;

  @Column(name = "max_publish_rate")
  Long maxPublishRate;

  @Column(name = "max_storage")
  String maxStorage;

  @Column(name = "max_storage_bytes")
  Long maxStorageBytes;

  @Column(name = "encryption_key_id")
  String encryptionKeyId;

  @Column(name = "encryption_rotation")
  String encryptionRotation;

  @Column(name = "encryption_rotation_ms")
  Long encryptionRotationMs;

  long version;

  Tenant toResource() {
    return new Tenant(
        name,
        description,
        new Tenant.TenantQuotas(
            maxStreams,
            maxPublishRate,
            maxStorage == null ? null : new SizeValue(maxStorage, maxStorageBytes)),
        new Tenant.Encryption(
            encryptionKeyId,
            encryptionRotation == null
                ? null
                : new DurationValue(encryptionRotation, encryptionRotationMs)),
        version);
  }
}
