package dev.controlplane.metadata;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.metadata.Applied.Outcome;
import dev.controlplane.metadata.log.WriteMode;
import dev.controlplane.metadata.model.Namespace;
import dev.controlplane.write.WriteContext;
import dev.controlplane.write.WritePipeline;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;

/**
 * Creates, replaces and deletes namespaces (each write may be a dry run, see {@link WriteMode}).
 */
@ApplicationScoped
public class NamespaceService {

  @Inject WritePipeline pipeline;

  public Applied<Namespace> applyNamespace(
      Namespace namespace, VersionMatch match, WriteMode mode) {
    return pipeline.execute(write -> apply(write, namespace, match), mode);
  }

  private static Applied<Namespace> apply(
      WriteContext write, Namespace namespace, VersionMatch match) {
    if (write.image().tenant(namespace.tenant()).isEmpty()) {
      throw ControlPlaneException.notFound("tenant " + namespace.tenant() + " does not exist");
    }
    Optional<Namespace> current = write.image().namespace(namespace.tenant(), namespace.name());
    match.check(current);
    if (current.isPresent() && Preconditions.sameContent(current.get(), namespace)) {
      return new Applied<>(current.get(), Outcome.UNCHANGED);
    }
    Namespace stored = write.put(namespace, current.orElse(null));
    return new Applied<>(stored, current.isPresent() ? Outcome.UPDATED : Outcome.CREATED);
  }

  public Namespace deleteNamespace(String tenant, String name, VersionMatch match, WriteMode mode) {
    return pipeline.execute(write -> delete(write, tenant, name, match), mode);
  }

  private static Namespace delete(
      WriteContext write, String tenant, String name, VersionMatch match) {
    Namespace current =
        write
            .image()
            .namespace(tenant, name)
            .orElseThrow(
                () ->
                    ControlPlaneException.notFound(
                        "namespace " + tenant + "/" + name + " does not exist"));
    match.check(Optional.of(current));
    long streams = write.state().countStreams(tenant, name);
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
