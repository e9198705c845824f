package dev.controlplane.metadata;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ControlPlaneException.FieldError;
import dev.controlplane.metadata.Applied.Outcome;
import dev.controlplane.metadata.log.WriteMode;
import dev.controlplane.metadata.model.Bridge;
import dev.controlplane.metadata.model.StreamRef;
import dev.controlplane.write.WriteContext;
import dev.controlplane.write.WritePipeline;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Creates, replaces and deletes bridges (each write may be a dry run, see {@link WriteMode}). Every
 * stream a bridge names must exist when it is written, checked against the state of the pipeline
 * (earlier writes of the same batch included); {@link StreamService} refuses to delete a stream a
 * bridge names, so a bridge never names a stream that is gone.
 */
@ApplicationScoped
public class BridgeService {

  @Inject WritePipeline pipeline;

  public Applied<Bridge> applyBridge(Bridge bridge, VersionMatch match, WriteMode mode) {
    return pipeline.execute(write -> apply(write, bridge, match), mode);
  }

  private static Applied<Bridge> apply(WriteContext write, Bridge bridge, VersionMatch match) {
    Optional<Bridge> current = write.image().bridge(bridge.name());
    match.check(current);
    if (current.isPresent() && Preconditions.sameContent(current.get(), bridge)) {
      return new Applied<>(current.get(), Outcome.UNCHANGED);
    }
    List<FieldError> missing = new ArrayList<>();
    List<StreamRef> streams = bridge.streams();
    for (int i = 0; i < streams.size(); i++) {
      if (write.image().stream(streams.get(i)).isEmpty()) {
        missing.add(
            new FieldError(
                "spec.streams[" + i + "]", "stream " + streams.get(i) + " does not exist"));
      }
    }
    if (!missing.isEmpty()) {
      throw ControlPlaneException.validation(missing);
    }
    Bridge stored = write.put(bridge, current.orElse(null));
    return new Applied<>(stored, current.isPresent() ? Outcome.UPDATED : Outcome.CREATED);
  }

  public Bridge deleteBridge(String name, VersionMatch match, WriteMode mode) {
    return pipeline.execute(
        write -> {
          Bridge current =
              write
                  .image()
                  .bridge(name)
                  .orElseThrow(
                      () -> ControlPlaneException.notFound("bridge " + name + " does not exist"));
          match.check(Optional.of(current));
          return write.delete(current);
        },
        mode);
  }
}
