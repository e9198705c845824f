package dev.controlplane.metadata;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.metadata.Applied.Outcome;
import dev.controlplane.metadata.log.WriteMode;
import dev.controlplane.metadata.model.Tenant;
import dev.controlplane.metadata.model.Tenant.TenantQuotas;
import dev.controlplane.write.WriteContext;
import dev.controlplane.write.WritePipeline;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;

/**
 * Creates, replaces and deletes tenants (each write may be a dry run, see {@link WriteMode}). A
 * tenant's quotas belong to the platform that imposes them: the tenant's own administrators may
 * rewrite everything else, but not {@code spec.quotas}.
 */
@ApplicationScoped
public class TenantService {

  /** Who writes: the platform operator, or an administrator of the tenant itself. */
  public enum Writer {
    PLATFORM,
    TENANT
  }

  @Inject WritePipeline pipeline;
  @Inject TenantSetup setup;

  /**
   * Create-or-replace. A {@link Writer#TENANT} write keeps the stored quotas when the document has
   * none ({@code quotasGiven} false) and is refused (403) when it carries different ones.
   */
  public Applied<Tenant> applyTenant(
      Tenant wanted, VersionMatch match, Writer writer, boolean quotasGiven, WriteMode mode) {
    return pipeline.execute(write -> apply(write, wanted, match, writer, quotasGiven), mode);
  }

  private Applied<Tenant> apply(
      WriteContext write, Tenant wanted, VersionMatch match, Writer writer, boolean quotasGiven) {
    Optional<Tenant> current = write.image().tenant(wanted.name());
    match.check(current);
    Tenant tenant =
        writer == Writer.PLATFORM ? wanted : withPlatformQuotas(wanted, current, quotasGiven);
    if (current.isPresent() && Preconditions.sameContent(current.get(), tenant)) {
      return new Applied<>(current.get(), Outcome.UNCHANGED);
    }
    Tenant stored = write.put(tenant, current.orElse(null));
    if (current.isPresent()) {
      return new Applied<>(stored, Outcome.UPDATED);
    }
    setup.created(write, stored.name());
    return new Applied<>(stored, Outcome.CREATED);
  }

  private static Tenant withPlatformQuotas(
      Tenant wanted, Optional<Tenant> current, boolean quotasGiven) {
    TenantQuotas stored = current.map(Tenant::quotas).orElse(TenantQuotas.NONE);
    if (!quotasGiven) {
      return new Tenant(
          wanted.name(), wanted.description(), stored, wanted.encryption(), wanted.version());
    }
    if (!wanted.quotas().equals(stored)) {
      throw new ControlPlaneException(
          ErrorCode.FORBIDDEN,
          "spec.quotas of a tenant is set by the platform operator; a tenant's own PUT may leave"
              + " it out or repeat the stored value, not change it");
    }
    return wanted;
  }

  public Tenant deleteTenant(String name, VersionMatch match, WriteMode mode) {
    return pipeline.execute(
        write -> {
          Tenant current =
              write
                  .image()
                  .tenant(name)
                  .orElseThrow(
                      () -> ControlPlaneException.notFound("tenant " + name + " does not exist"));
          match.check(Optional.of(current));
          long namespaces = write.state().countNamespaces(name);
          if (namespaces > 0) {
            throw ControlPlaneException.conflict(
                "tenant " + name + " still has " + namespaces + " namespace(s); delete them first");
          }
          return write.delete(current);
        },
        mode);
  }
}
