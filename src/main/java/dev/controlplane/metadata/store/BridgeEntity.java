package dev.controlplane.metadata.store;

import dev.controlplane.metadata.kind.Kinds;
import dev.controlplane.metadata.model.Bridge;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

@Entity
@Table(name = "bridges")
class BridgeEntity {
  @Id String name;

  @Column(name = "source_region")
  String sourceRegion;

  @Column(name = "target_region")
  String targetRegion;

  /** A JSON array of streams (migration V12); read only, the write pipeline writes rows. */
  String streams;

  @Column(name = "encryption_key_id")
  String encryptionKeyId;

  long version;

  Bridge toResource() {
    return new Bridge(
        name, sourceRegion, targetRegion, Kinds.bridgeStreams(streams), encryptionKeyId, version);
  }
}
