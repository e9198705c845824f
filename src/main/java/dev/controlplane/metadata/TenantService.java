package dev.controlplane.metadata;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.metadata.Applied.Outcome;
import dev.controlplane.metadata.log.ChangeLog;
import dev.controlplane.metadata.log.VersionedWrite;
import dev.controlplane.metadata.model.Tenant;
import dev.controlplane.metadata.store.ResourceStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.util.Optional;
import java.util.OptionalLong;

/** Creates, replaces and deletes tenants. */
@ApplicationScoped
public class TenantService {

  @Inject ChangeLog changeLog;
  @Inject ResourceStore store;

  @Transactional
  public Applied<Tenant> applyTenant(
      Tenant tenant, OptionalLong expectedVersion, VersionMatch match) {
    VersionedWrite write = changeLog.begin();
    Optional<Tenant> current = store.tenant(tenant.name());
    match.check(current);
    Preconditions.checkExpectedVersion(expectedVersion, current);
    if (current.isPresent() && Preconditions.sameContent(current.get(), tenant)) {
      return new Applied<>(current.get(), Outcome.UNCHANGED);
    }
    Tenant stored = write.put(tenant, current.orElse(null));
    return new Applied<>(stored, current.isPresent() ? Outcome.UPDATED : Outcome.CREATED);
  }

  @Transactional
  public Tenant deleteTenant(String name, VersionMatch match) {
    VersionedWrite write = changeLog.begin();
    Tenant current =
        store
            .tenant(name)
            .orElseThrow(
                () -> ControlPlaneException.notFound("tenant " + name + " does not exist"));
    match.check(Optional.of(current));
    long namespaces = store.countNamespaces(name);
    if (namespaces > 0) {
      throw ControlPlaneException.conflict(
          "tenant " + name + " still has " + namespaces + " namespace(s); delete them first");
    }
    return write.delete(current);
  }
}
