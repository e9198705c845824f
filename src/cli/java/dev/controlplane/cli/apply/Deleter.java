package dev.controlplane.cli.apply;

import dev.controlplane.cli.client.ApiClient;
import dev.controlplane.cli.client.ApiClient.Call;
import dev.controlplane.cli.client.ApiException;
import dev.controlplane.cli.resource.Kind;
import dev.controlplane.cli.resource.ResourceRef;

/** Deletes one tenant, namespace or stream over HTTP, for {@code delete} and {@code --prune}. */
public final class Deleter {

  private final ApiClient api;
  private final boolean dryRun;
  private final boolean force;

  public Deleter(ApiClient api, boolean dryRun, boolean force) {
    this.api = api;
    this.dryRun = dryRun;
    this.force = force;
  }

  /** Deletes {@code ref}; {@code done} is the outcome on success (deleted, or pruned). */
  public Result delete(ResourceRef ref, Outcome done, boolean ignoreNotFound) {
    if (ref.kind() == Kind.BROKER || ref.kind() == Kind.PLACEMENT) {
      return Result.of(
          ref,
          Outcome.INVALID,
          ref.kind() == Kind.BROKER
              ? "brokers are not deleted: drain them (cpctl brokers drain) and stop them"
              : "placements go with their stream");
    }
    Call call =
        Call.of("DELETE", ref.path())
            .query("dryRun", dryRun ? "All" : null)
            .query("force", force && ref.kind() == Kind.STREAM ? "true" : null)
            .tenant(ref.tenant());
    try {
      var response = api.send(call);
      return new Result(ref.display(), ref, done, null, java.util.List.of(), response.body());
    } catch (ApiException e) {
      if (e.status() == 404 && ignoreNotFound) {
        return Result.of(ref, Outcome.UNCHANGED, "not found");
      }
      return Result.of(ref, Outcome.FAILED, e.getMessage());
    }
  }
}
