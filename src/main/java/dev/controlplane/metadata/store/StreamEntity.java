package dev.controlplane.metadata.store;

import dev.controlplane.metadata.model.DurationValue;
import dev.controlplane.metadata.model.SizeValue;
import dev.controlplane.metadata.model.Stream;
import dev.controlplane.metadata.model.Stream.WireEnum;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.time.Instant;

@Entity
@Table(name = "streams")
@IdClass(StreamEntity.Key.class)
class StreamEntity {
  @Id String tenant;
  @Id String namespace;
  @Id String name;
  int shards;

  @Column(name = "retention_time")
  String retentionTime;

  @Column(name = "retention_ms")
  Long retentionMs;

  @Column(name = "retention_size")
  String retentionSize;

  @Column(name = "retention_bytes")
  Long retentionBytes;

  String durability;

  @Column(name = "replication_factor")
  int replicationFactor;

  @Column(name = "ack_policy")
  String ackPolicy;

  String state;

  @Column(name = "deleted_at")
  Instant deletedAt;

  @Column(name = "purge_after")
  Instant purgeAfter;

  long version;

  /** Composite primary key. */
  public static class Key implements Serializable {
    String tenant;
    String namespace;
    String name;

    public Key() {}

    Key(String tenant, String namespace, String name) {
      this.tenant = tenant;
      this.namespace = namespace;
      this.name = name;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k
          && java.util.Objects.equals(tenant, k.tenant)
          && java.util.Objects.equals(namespace, k.namespace)
          && java.util.Objects.equals(name, k.name);
    }

    @Override
    public int hashCode() {
      return java.util.Objects.hash(tenant, namespace, name);
    }
  }

  Stream toResource() {
    var retention =
        new Stream.Retention(
            retentionTime == null ? null : new DurationValue(retentionTime, retentionMs),
            retentionSize == null ? null : new SizeValue(retentionSize, retentionBytes));
    var spec =
        new Stream.StreamSpec(
            shards,
            retention,
            WireEnum.fromWire(Stream.Durability.class, durability).orElseThrow(),
            replicationFactor,
            WireEnum.fromWire(Stream.AckPolicy.class, ackPolicy).orElseThrow());
    return new Stream(
        tenant,
        namespace,
        name,
        spec,
        WireEnum.fromWire(Stream.State.class, state).orElseThrow(),
        version);
  }
}
