package dev.controlplane.metadata;

import dev.controlplane.metadata.model.Resource;

/**
 * The outcome of a create-or-replace: the stored resource and whether it was created. When nothing
 * changed, no update was written and the resource keeps its version.
 */
public record Applied<R extends Resource>(R resource, Outcome outcome) {

  public enum Outcome {
    CREATED,
    UPDATED,
    UNCHANGED
  }

  public boolean created() {
    return outcome == Outcome.CREATED;
  }
}
