package dev.controlplane.write;

/**
 * One write, run by the pipeline thread against the state left by every earlier operation of its
 * batch. It validates (throwing {@link dev.controlplane.error.ControlPlaneException} for a refusal,
 * which changes nothing), then records its changes through the {@link WriteContext} and returns its
 * result. The result reaches the caller only once the batch has committed.
 *
 * <h2>Determinism</h2>
 *
 * An operation reads only the context (the in-memory state, and the database through {@link
 * WriteContext#query} where the state does not hold what it needs) and its own arguments; it may be
 * run again on another state (after a failed batch is isolated, or on a dry run), so it must not
 * keep effects outside the context.
 */
@FunctionalInterface
public interface Operation<R> {

  R apply(WriteContext context);
}
