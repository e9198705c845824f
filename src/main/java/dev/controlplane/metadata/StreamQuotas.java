package dev.controlplane.metadata;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.metadata.model.StreamRef;
import dev.controlplane.write.WriteState;

/**
 * The {@code max_streams} quotas of the namespace and the tenant, checked by the write pipeline
 * against the state including every earlier operation of the batch, so no concurrent create can
 * slip past a check (operations are applied one after another).
 */
final class StreamQuotas {

  private StreamQuotas() {}

  static void checkRoomFor(WriteState state, StreamRef ref) {
    var namespace = state.image().namespace(ref.tenant(), ref.namespace()).orElseThrow();
    Long nsLimit = namespace.quotas().maxStreams();
    if (nsLimit != null && state.countActiveStreams(ref.tenant(), ref.namespace()) >= nsLimit) {
      throw new ControlPlaneException(
          ErrorCode.RESOURCE_EXHAUSTED,
          "namespace "
              + ref.tenant()
              + "/"
              + ref.namespace()
              + " has reached its quota of "
              + nsLimit
              + " streams");
    }
    Long tenantLimit = state.image().tenant(ref.tenant()).orElseThrow().quotas().maxStreams();
    if (tenantLimit != null && state.countActiveStreams(ref.tenant(), null) >= tenantLimit) {
      throw new ControlPlaneException(
          ErrorCode.RESOURCE_EXHAUSTED,
          "tenant " + ref.tenant() + " has reached its quota of " + tenantLimit + " streams");
    }
  }
}
