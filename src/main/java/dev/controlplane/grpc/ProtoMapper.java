package dev.controlplane.grpc;

import dev.controlplane.metadata.kind.Kinds;
import dev.controlplane.metadata.model.Broker;
import dev.controlplane.metadata.model.MetadataUpdate;
import dev.controlplane.metadata.model.Stream;
import dev.controlplane.proto.v1.BrokerStatus;
import dev.controlplane.proto.v1.StreamSpec;

/** Domain resources to their protobuf form; each kind's mapping is its {@code Kind} class. */
public final class ProtoMapper {

  private ProtoMapper() {}

  public static dev.controlplane.proto.v1.MetadataUpdate update(MetadataUpdate update) {
    return Kinds.proto(update);
  }

  public static dev.controlplane.proto.v1.Broker broker(Broker b) {
    return (dev.controlplane.proto.v1.Broker) Kinds.message(b);
  }

  public static StreamSpec spec(Stream.StreamSpec spec) {
    return Kinds.streamSpec(spec);
  }

  public static BrokerStatus status(Broker.Status status) {
    return Kinds.brokerStatus(status);
  }
}
