package dev.controlplane.metadata.store;

import dev.controlplane.metadata.model.Broker;
import dev.controlplane.metadata.model.Stream.WireEnum;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.ColumnTransformer;

@Entity
@Table(name = "brokers")
class BrokerEntity {
  @Id String name;
  String address;
  String region;

  @Column(name = "availability_zone")
  String availabilityZone;

  /** A JSON object of strings (V5 migration). */
  @ColumnTransformer(write = "?::jsonb")
  String labels;

  @Column(name = "max_shards")
  Integer maxShards;

  @Column(name = "max_connections")
  Integer maxConnections;

  String status;
  long version;

  void apply(Broker b) {
    name = b.name();
    address = b.address();
    region = b.region();
    availabilityZone = b.availabilityZone();
    labels = LabelsJson.write(b.labels());
    maxShards = b.capacity().maxShards();
    maxConnections = b.capacity().maxConnections();
    status = b.status().wire();
    version = b.version();
  }

  Broker toResource() {
    return new Broker(
        name,
        address,
        region,
        availabilityZone,
        LabelsJson.read(labels),
        new Broker.Capacity(maxShards, maxConnections),
        WireEnum.fromWire(Broker.Status.class, status).orElseThrow(),
        version);
  }
}
