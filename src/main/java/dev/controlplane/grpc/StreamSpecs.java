package dev.controlplane.grpc;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.controlplane.error.ControlPlaneException;
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
    var given = spec.getRetention();
    ObjectNode retention = s.putObject("retention");
    String time = orNormalised(given.getTime(), given.getTimeMs(), "ms", "time_ms");
    if (!time.isEmpty()) {
      retention.put("time", time);
    }
    String size = orNormalised(given.getSize(), given.getSizeInBytes(), "B", "size_in_bytes");
    if (!size.isEmpty()) {
      retention.put("size", size);
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
    Stream stream =
        (Stream)
            codec.read(
                doc,
                ResourceKind.STREAM,
                Map.of(
                    "tenant",
                    nonNull(tenant),
                    "namespace",
                    nonNull(namespace),
                    "name",
                    nonNull(name)));
    Stream.Retention read = stream.spec().retention();
    if (given.getTimeMs() != 0 && read.time().millis() != given.getTimeMs()) {
      throw mismatch("time", given.getTime(), read.time().millis() + " ms", "time_ms");
    }
    if (given.getSizeInBytes() != 0 && read.size().bytes() != given.getSizeInBytes()) {
      throw mismatch("size", given.getSize(), read.size().bytes() + " bytes", "size_in_bytes");
    }
    return stream;
  }

  /**
   * The limit as text: as given, or from its normalised field when only that is set (a client
   * filling the fields the answers carry). Dropping the number would have kept the stream's data
   * forever without a word.
   */
  private static String orNormalised(String text, long normalised, String unit, String field) {
    if (!text.isEmpty() || normalised == 0) {
      return text;
    }
    if (Long.compareUnsigned(normalised, MAX_NORMALISED) > 0) {
      throw ControlPlaneException.validation(
          "spec.retention." + field, "must be at most " + MAX_NORMALISED);
    }
    return normalised + unit;
  }

  /** The largest number the text grammar takes (15 digits). */
  private static final long MAX_NORMALISED = 999_999_999_999_999L;

  private static ControlPlaneException mismatch(
      String field, String text, String means, String normalised) {
    return ControlPlaneException.validation(
        "spec.retention." + normalised,
        "does not match spec.retention." + field + " ('" + text + "' is " + means + ")");
  }

  private static String nonNull(String s) {
    return s == null ? "" : s;
  }
}
