package dev.controlplane.grpc;

import dev.controlplane.metadata.model.Broker;
import dev.controlplane.metadata.model.MetadataUpdate;
import dev.controlplane.metadata.model.Namespace;
import dev.controlplane.metadata.model.Resource;
import dev.controlplane.metadata.model.ShardPlacement;
import dev.controlplane.metadata.model.Stream;
import dev.controlplane.metadata.model.Tenant;
import dev.controlplane.proto.v1.AckPolicy;
import dev.controlplane.proto.v1.BrokerCapacity;
import dev.controlplane.proto.v1.BrokerStatus;
import dev.controlplane.proto.v1.Durability;
import dev.controlplane.proto.v1.EncryptionSettings;
import dev.controlplane.proto.v1.NamespaceQuotas;
import dev.controlplane.proto.v1.RetentionPolicy;
import dev.controlplane.proto.v1.ShardAssignment;
import dev.controlplane.proto.v1.StreamSpec;
import dev.controlplane.proto.v1.StreamStatus;
import dev.controlplane.proto.v1.TenantQuotas;
import dev.controlplane.proto.v1.UpdateType;

/** Domain resources to their protobuf form. */
public final class ProtoMapper {

  private ProtoMapper() {}

  public static dev.controlplane.proto.v1.MetadataUpdate update(MetadataUpdate update) {
    var builder =
        dev.controlplane.proto.v1.MetadataUpdate.newBuilder()
            .setVersion(update.version())
            .setType(UpdateType.valueOf(update.type().name()));
    Resource r = update.resource();
    if (r instanceof Tenant t) {
      builder.setTenant(tenant(t));
    } else if (r instanceof Namespace n) {
      builder.setNamespace(namespace(n));
    } else if (r instanceof Stream s) {
      builder.setStream(stream(s));
    } else if (r instanceof ShardPlacement p) {
      builder.setPlacement(placement(p));
    } else {
      builder.setBroker(broker((Broker) r));
    }
    return builder.build();
  }

  public static com.google.protobuf.Message message(Resource r) {
    if (r instanceof Tenant t) {
      return tenant(t);
    } else if (r instanceof Namespace n) {
      return namespace(n);
    } else if (r instanceof Stream s) {
      return stream(s);
    } else if (r instanceof ShardPlacement p) {
      return placement(p);
    }
    return broker((Broker) r);
  }

  /** Adds a message made by {@link #message(Resource)} to the matching list. */
  public static void addTo(
      dev.controlplane.proto.v1.Metadata.Builder metadata, com.google.protobuf.Message m) {
    if (m instanceof dev.controlplane.proto.v1.Tenant t) {
      metadata.addTenants(t);
    } else if (m instanceof dev.controlplane.proto.v1.Namespace n) {
      metadata.addNamespaces(n);
    } else if (m instanceof dev.controlplane.proto.v1.Stream s) {
      metadata.addStreams(s);
    } else if (m instanceof dev.controlplane.proto.v1.ShardPlacement p) {
      metadata.addPlacements(p);
    } else {
      metadata.addBrokers((dev.controlplane.proto.v1.Broker) m);
    }
  }

  public static dev.controlplane.proto.v1.Tenant tenant(Tenant t) {
    var quotas = TenantQuotas.newBuilder();
    if (t.quotas().maxStreams() != null) {
      quotas.setMaxStreams(t.quotas().maxStreams());
    }
    if (t.quotas().maxPublishRate() != null) {
      quotas.setMaxPublishRate(t.quotas().maxPublishRate());
    }
    if (t.quotas().maxStorage() != null) {
      quotas
          .setMaxStorage(t.quotas().maxStorage().text())
          .setMaxStorageInBytes(t.quotas().maxStorage().bytes());
    }
    var encryption = EncryptionSettings.newBuilder();
    if (t.encryption().keyId() != null) {
      encryption.setKeyId(t.encryption().keyId());
    }
    if (t.encryption().rotationPeriod() != null) {
      encryption
          .setRotationPeriod(t.encryption().rotationPeriod().text())
          .setRotationPeriodMs(t.encryption().rotationPeriod().millis());
    }
    return dev.controlplane.proto.v1.Tenant.newBuilder()
        .setName(t.name())
        .setDescription(t.description())
        .setQuotas(quotas)
        .setEncryption(encryption)
        .setVersion(t.version())
        .build();
  }

  public static dev.controlplane.proto.v1.Namespace namespace(Namespace n) {
    var quotas = NamespaceQuotas.newBuilder();
    if (n.quotas().maxStreams() != null) {
      quotas.setMaxStreams(n.quotas().maxStreams());
    }
    if (n.quotas().maxPublishRate() != null) {
      quotas.setMaxPublishRate(n.quotas().maxPublishRate());
    }
    return dev.controlplane.proto.v1.Namespace.newBuilder()
        .setTenant(n.tenant())
        .setName(n.name())
        .setDescription(n.description())
        .setQuotas(quotas)
        .setVersion(n.version())
        .build();
  }

  public static dev.controlplane.proto.v1.Stream stream(Stream s) {
    return dev.controlplane.proto.v1.Stream.newBuilder()
        .setTenant(s.tenant())
        .setNamespace(s.namespace())
        .setName(s.name())
        .setSpec(spec(s.spec()))
        .setStatus(
            s.state() == Stream.State.ACTIVE
                ? StreamStatus.STREAM_STATUS_ACTIVE
                : StreamStatus.STREAM_STATUS_DELETING)
        .setVersion(s.version())
        .build();
  }

  public static StreamSpec spec(Stream.StreamSpec spec) {
    var retention = RetentionPolicy.newBuilder();
    if (spec.retention().time() != null) {
      retention.setTime(spec.retention().time().text()).setTimeMs(spec.retention().time().millis());
    }
    if (spec.retention().size() != null) {
      retention
          .setSize(spec.retention().size().text())
          .setSizeInBytes(spec.retention().size().bytes());
    }
    return StreamSpec.newBuilder()
        .setShards(spec.shards())
        .setRetention(retention)
        .setDurability(
            spec.durability() == Stream.Durability.DURABLE
                ? Durability.DURABILITY_DURABLE
                : Durability.DURABILITY_EPHEMERAL)
        .setReplicationFactor(spec.replicationFactor())
        .setAckPolicy(
            spec.ackPolicy() == Stream.AckPolicy.QUORUM
                ? AckPolicy.ACK_POLICY_QUORUM
                : AckPolicy.ACK_POLICY_LEADER_ONLY)
        .build();
  }

  public static dev.controlplane.proto.v1.ShardPlacement placement(ShardPlacement p) {
    var builder =
        dev.controlplane.proto.v1.ShardPlacement.newBuilder()
            .setTenant(p.tenant())
            .setNamespace(p.namespace())
            .setStream(p.stream())
            .setVersion(p.version());
    for (ShardPlacement.ShardAssignment a : p.placements()) {
      builder.addPlacements(
          ShardAssignment.newBuilder()
              .setShardId(a.shardId())
              .setLeader(a.leader())
              .addAllReplicas(a.replicas()));
    }
    return builder.build();
  }

  public static dev.controlplane.proto.v1.Broker broker(Broker b) {
    var capacity = BrokerCapacity.newBuilder();
    if (b.capacity().maxShards() != null) {
      capacity.setMaxShards(b.capacity().maxShards());
    }
    if (b.capacity().maxConnections() != null) {
      capacity.setMaxConnections(b.capacity().maxConnections());
    }
    return dev.controlplane.proto.v1.Broker.newBuilder()
        .setName(b.name())
        .setAddress(b.address())
        .setRegion(b.region())
        .setAvailabilityZone(b.availabilityZone())
        .putAllLabels(b.labels())
        .setCapacity(capacity)
        .setStatus(status(b.status()))
        .setVersion(b.version())
        .build();
  }

  public static BrokerStatus status(Broker.Status status) {
    return switch (status) {
      case ACTIVE -> BrokerStatus.BROKER_STATUS_ACTIVE;
      case DRAINING -> BrokerStatus.BROKER_STATUS_DRAINING;
      case DOWN -> BrokerStatus.BROKER_STATUS_DOWN;
    };
  }
}
