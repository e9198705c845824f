package dev.controlplane.metadata.store;

import dev.controlplane.metadata.model.Broker;
import dev.controlplane.metadata.model.Stream.WireEnum;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

@Entity
@Table(name = "brokers")
class BrokerEntity {
  @Id String name;
  String address;
  String region;

  @Column(name = "availability_zone")
  String availabilityZone;

  /** A JSON object of strings (migration V6); read only, the write pipeline writes rows. */
  String labels;

  @Column(name = "max_shards")
  Integer maxShards;

  @Column(name = "max_connections")
  Integer maxConnections;

  String status;

  /** The operator's drain, kept while the broker is down (migration V13). */
  @Column(name = "drain_requested")
  boolean drainRequested;

  long version;

  Broker toResource() {
    return new Broker(
        name,
        address,
        region,
        availabilityZone,
        LabelsJson.read(labels),
        new Broker.Capacity(maxShards, maxConnections),
        WireEnum.fromWire(Broker.Status.class, status).orElseThrow(),
        drainRequested,
        version);
  }
}
