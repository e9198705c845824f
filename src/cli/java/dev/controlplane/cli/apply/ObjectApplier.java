package dev.controlplane.cli.apply;

import com.fasterxml.jackson.databind.JsonNode;
import dev.controlplane.cli.client.ApiClient;
import dev.controlplane.cli.client.ApiClient.Call;
import dev.controlplane.cli.client.ApiException;
import dev.controlplane.cli.resource.Kind;
import dev.controlplane.cli.resource.ResourceRef;
import java.util.List;
import java.util.Optional;

/**
 * Writes one object: reads it, writes the document under a {@link WritePrecondition}, and tells
 * created (201), configured (a new version) from unchanged (the version it had). Tenants,
 * namespaces and streams are PUT over HTTP; a Broker's {@code spec.status} goes through {@link
 * BrokerStatusWriter}.
 */
public final class ObjectApplier {

  private final ApiClient api;
  private final BrokerStatusWriter brokers;
  private final boolean dryRun;

  public ObjectApplier(ApiClient api, BrokerStatusWriter brokers, boolean dryRun) {
    this.api = api;
    this.brokers = brokers;
    this.dryRun = dryRun;
  }

  public Result apply(ApplyPlan.Item item) {
    ResourceRef ref = item.ref();
    try {
      JsonNode live = read(ref).orElse(null);
      WritePrecondition precondition = WritePrecondition.of(item.doc(), live);
      try {
        JsonNode stored;
        boolean created;
        if (ref.kind() == Kind.BROKER) {
          stored = brokers.write(ref, item.doc(), live, precondition, dryRun);
          created = false;
        } else {
          ApiClient.Response response = api.send(put(ref, precondition.body(item.doc())));
          stored = response.body();
          created = response.status() == 201;
        }
        return written(ref, live, stored, created);
      } catch (ApiException e) {
        return refused(ref, precondition, e);
      }
    } catch (ApiException e) {
      return Result.of(ref, Outcome.FAILED, "cannot read it: " + e.getMessage());
    } catch (BrokerStatusWriter.Invalid e) {
      return Result.of(ref, Outcome.INVALID, e.getMessage());
    }
  }

  private Call put(ResourceRef ref, JsonNode body) {
    return Call.of("PUT", ref.path())
        .query("dryRun", dryRun ? "All" : null)
        .body(body)
        .tenant(ref.tenant());
  }

  private Result written(ResourceRef ref, JsonNode live, JsonNode stored, boolean created) {
    Outcome outcome;
    if (created || live == null) {
      outcome = Outcome.CREATED;
    } else if (WritePrecondition.versionOf(stored) == WritePrecondition.versionOf(live)) {
      outcome = Outcome.UNCHANGED;
    } else {
      outcome = Outcome.CONFIGURED;
    }
    List<String> changes =
        dryRun && outcome == Outcome.CONFIGURED ? Diff.between(live, stored) : List.of();
    return new Result(ref.display(), ref, outcome, null, changes, stored);
  }

  private Result refused(ResourceRef ref, WritePrecondition precondition, ApiException e) {
    if (e.status() == 409 || e.status() == 412) {
      long current = read(ref).map(WritePrecondition::versionOf).orElse(0L);
      if (precondition.isConflict(e.status(), current)) {
        return Result.of(ref, Outcome.CONFLICT, precondition.describeConflict(current));
      }
    }
    Outcome outcome = e.status() == 400 ? Outcome.INVALID : Outcome.FAILED;
    return Result.of(ref, outcome, e.getMessage());
  }

  /** The object as stored, or empty when it does not exist. */
  Optional<JsonNode> read(ResourceRef ref) {
    try {
      return Optional.of(api.send(Call.of("GET", ref.path()).tenant(ref.tenant())).body());
    } catch (ApiException e) {
      if (e.status() == 404) {
        return Optional.empty();
      }
      throw e;
    }
  }
}
