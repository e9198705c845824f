package dev.controlplane.grpc;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.controlplane.metadata.codec.ResourceCodec;
import dev.controlplane.metadata.model.ResourceKind;
import dev.controlplane.metadata.model.Stream;
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
    // An enum number this version does not know (a newer client's, or a mistake) goes into the
    // document as its number, which the codec refuses naming the field: read as the other known
    // value it would have made a durable stream ephemeral or a quorum ack leader-only.
    switch (spec.getDurability()) {
      case DURABILITY_UNSPECIFIED -> {}
      case DURABILITY_DURABLE -> s.put("durability", "durable");
      case DURABILITY_EPHEMERAL -> s.put("durability", "ephemeral");
      default -> s.put("durability", String.valueOf(spec.getDurabilityValue()));
    }
    switch (spec.getAckPolicy()) {
      case ACK_POLICY_UNSPECIFIED -> {}
      case ACK_POLICY_QUORUM -> s.put("ack_policy", "quorum");
      case ACK_POLICY_LEADER_ONLY -> s.put("ack_policy", "leader_only");
      default -> s.put("ack_policy", String.valueOf(spec.getAckPolicyValue()));
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
