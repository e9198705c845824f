package dev.controlplane.metadata;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.metadata.model.StreamRef;
import dev.controlplane.metadata.store.ResourceStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The {@code max_streams} quotas of the namespace and the tenant. Called inside the write
 * transaction, after {@code ChangeLog.begin()} took the counter lock, so no concurrent create can
 * slip past a check (writes are serialised by that lock).
 */
@ApplicationScoped
public class StreamQuotas {

  @Inject ResourceStore store;

  void checkRoomFor(StreamRef ref) {
    var namespace = store.namespace(ref.tenant(), ref.namespace()).orElseThrow();
    Long nsLimit = namespace.quotas().maxStreams();
    if (nsLimit != null && store.countActiveStreams(ref.tenant(), ref.namespace()) >= nsLimit) {
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
    Long tenantLimit = store.tenant(ref.tenant()).orElseThrow().quotas().maxStreams();
    if (tenantLimit != null && store.countActiveStreams(ref.tenant(), null) >= tenantLimit) {
      throw new ControlPlaneException(
          ErrorCode.RESOURCE_EXHAUSTED,
          "tenant " + ref.tenant() + " has reached its quota of " + tenantLimit + " streams");
    }
  }
}
