package dev.controlplane.grpc;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.controlplane.metadata.codec.ResourceCodec;
import dev.controlplane.metadata.model.ResourceKind;
import dev.controlplane.metadata.model.Stream;
import dev.controlplane.proto.v1.AckPolicy;
import dev.controlplane.proto.v1.Durability;
import dev.controlplane.proto.v1.StreamSpec;
import java.util.Map;

/**
 * A CreateStream request as a Stream: it is turned into the declarative document and read by the
 * same codec as HTTP, so both APIs validate streams identically.
 */
final class StreamSpecs {

  private StreamSpecs() {}

  static Stream toStream(
      ResourceCodec codec, String tenant, String namespace, String name, StreamSpec spec) {
    ObjectNode doc = codec.newObject();
    doc.put("apiVersion", ResourceCodec.API_VERSION);
    doc.put("kind", ResourceKind.STREAM.kindName());
    ObjectNode s = doc.putObject("spec");
    s.put("shards", spec.getShards());
    // proto3 cannot tell an unset uint32 from 0: 0 means "not given", so the document's default
    // (1, as over HTTP) applies instead of a validation error.
    if (spec.getReplicationFactor() != 0) {
      s.put("replication_factor", spec.getReplicationFactor());
    }
    ObjectNode retention = s.putObject("retention");
    if (!spec.getRetention().getTime().isEmpty()) {
      retention.put("time", spec.getRetention().getTime());
    }
    if (!spec.getRetention().getSize().isEmpty()) {
      retention.put("size", spec.getRetention().getSize());
    }
    if (spec.getDurability() != Durability.DURABILITY_UNSPECIFIED) {
      s.put(
          "durability",
          spec.getDurability() == Durability.DURABILITY_DURABLE ? "durable" : "ephemeral");
    }
    if (spec.getAckPolicy() != AckPolicy.ACK_POLICY_UNSPECIFIED) {
      s.put(
          "ack_policy",
          spec.getAckPolicy() == AckPolicy.ACK_POLICY_QUORUM ? "quorum" : "leader_only");
    }
    return (Stream)
        codec.read(
            doc,
            ResourceKind.STREAM,
            Map.of(
                "tenant", nonNull(tenant), "namespace", nonNull(namespace), "name", nonNull(name)));
  }

  private static String nonNull(String s) {
    return s == null ? "" : s;
  }
}
