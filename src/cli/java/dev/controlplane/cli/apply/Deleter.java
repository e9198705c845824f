package dev.controlplane.cli.apply;

import dev.controlplane.cli.client.ApiClient;
import dev.controlplane.cli.client.ApiClient.Call;
import dev.controlplane.cli.client.ApiException;
import dev.controlplane.cli.resource.Kind;
import dev.controlplane.cli.resource.ResourceRef;

/**
 * Deletes one tenant, namespace, stream or broker over HTTP, for {@code delete} and {@code
 * --prune}. The server decides whether a broker may go (only a broker marked down that holds no
 * replica, and only for the operator) and says why not.
 */
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
    if (ref.kind() == Kind.PLACEMENT) {
      return Result.of(ref, Outcome.INVALID, "placements go with their stream");
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
