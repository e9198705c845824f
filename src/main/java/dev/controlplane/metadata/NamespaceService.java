package dev.controlplane.metadata;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.metadata.Applied.Outcome;
import dev.controlplane.metadata.log.ChangeLog;
import dev.controlplane.metadata.log.VersionedWrite;
import dev.controlplane.metadata.model.Namespace;
import dev.controlplane.metadata.store.ResourceStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.util.Optional;
import java.util.OptionalLong;

/** Creates, replaces and deletes namespaces. */
@ApplicationScoped
public class NamespaceService {

  @Inject ChangeLog changeLog;
  @Inject ResourceStore store;

  @Transactional
  public Applied<Namespace> applyNamespace(
      Namespace namespace, OptionalLong expectedVersion, VersionMatch match) {
    VersionedWrite write = changeLog.begin();
    if (store.tenant(namespace.tenant()).isEmpty()) {
      throw ControlPlaneException.notFound("tenant " + namespace.tenant() + " does not exist");
    }
    Optional<Namespace> current = store.namespace(namespace.tenant(), namespace.name());
    match.check(current);
    Preconditions.checkExpectedVersion(expectedVersion, current);
    if (current.isPresent() && Preconditions.sameContent(current.get(), namespace)) {
      return new Applied<>(current.get(), Outcome.UNCHANGED);
    }
    Namespace stored = write.put(namespace, current.orElse(null));
    return new Applied<>(stored, current.isPresent() ? Outcome.UPDATED : Outcome.CREATED);
  }

  @Transactional
  public Namespace deleteNamespace(String tenant, String name, VersionMatch match) {
    VersionedWrite write = changeLog.begin();
    Namespace current =
        store
            .namespace(tenant, name)
            .orElseThrow(
                () ->
                    ControlPlaneException.notFound(
                        "namespace " + tenant + "/" + name + " does not exist"));
    match.check(Optional.of(current));
    long streams = store.countStreams(tenant, name);
    if (streams > 0) {
      throw ControlPlaneException.conflict(
          "namespace "
              + tenant
              + "/"
              + name
              + " still has "
              + streams
              + " stream(s), including deleted ones"
              + " awaiting purge; delete them first");
    }
    return write.delete(current);
  }
}
