package dev.controlplane.cli.apply;

import dev.controlplane.cli.CliException;
import dev.controlplane.cli.ExitCodes;
import dev.controlplane.cli.output.Progress;
import dev.controlplane.cli.resource.ResourceRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * Runs an apply level by level: a level starts when the one before it has finished, its objects are
 * written {@code parallel} at a time, and results are reported in input order. An object whose
 * tenant or namespace failed is skipped. In a dry run nothing is created, so an object whose parent
 * would be created by this apply cannot be checked by the server (it answers 404): it is reported
 * as created, with that said. Outside a dry run the same 404 means the parent is gone again
 * (deleted since this apply created it) and is reported as the failure it is. A server that cannot
 * be reached ends the run, once the other objects of its level (sent with it) are reported, with
 * the counts of what was applied, unknown and not attempted.
 */
final class ApplyRun {

  private final ObjectApplier applier;
  private final int parallel;
  private final boolean dryRun;
  private final Consumer<Result> report;
  private final Map<ResourceRef, Outcome> outcomes = new ConcurrentHashMap<>();

  ApplyRun(ObjectApplier applier, int parallel, boolean dryRun, Consumer<Result> report) {
    this.applier = applier;
    this.parallel = parallel;
    this.dryRun = dryRun;
    this.report = report;
  }

  List<Result> apply(ApplyPlan plan, Progress progress) {
    List<Result> results = new ArrayList<>();
    int total = plan.levels().stream().mapToInt(List::size).sum();
    int sent = 0;
    ExecutorService pool = Executors.newFixedThreadPool(parallel, daemon());
    try {
      for (List<ApplyPlan.Item> level : plan.levels()) {
        List<Future<Result>> pending = new ArrayList<>();
        for (ApplyPlan.Item item : level) {
          pending.add(pool.submit(() -> one(item, progress)));
        }
        sent += level.size();
        CliException stopped = null;
        int unknown = 0;
        for (Future<Result> future : pending) {
          Result result;
          try {
            result = await(future);
          } catch (CliException e) {
            // The others of this level were sent at the same time and may have been written:
            // report each of them before the run ends, so that nothing written goes unsaid.
            stopped = stopped == null ? e : stopped;
            unknown++;
            continue;
          }
          progress.above(() -> report.accept(result));
          results.add(result);
        }
        if (stopped != null) {
          throw new CliException(
              stopped.exitCode(),
              stopped.getMessage()
                  + " ("
                  + results.size()
                  + " of "
                  + total
                  + " objects applied as listed above; "
                  + unknown
                  + " whose outcome is unknown; "
                  + (total - sent)
                  + " not attempted)",
              stopped);
        }
      }
    } finally {
      pool.shutdownNow();
    }
    return results;
  }

  private Result one(ApplyPlan.Item item, Progress progress) {
    try {
      ResourceRef ref = item.ref();
      Outcome parent = ref.parent().map(outcomes::get).orElse(null);
      Result result;
      if (parent != null && parent.isFailure()) {
        result = Result.of(ref, Outcome.SKIPPED, ref.parent().get().display() + " was not applied");
      } else {
        result = applier.apply(item);
        if (dryRun
            && parent == Outcome.CREATED
            && result.outcome() == Outcome.FAILED
            && result.detail().startsWith("not_found")) {
          result =
              Result.of(
                  ref,
                  Outcome.CREATED,
                  "not checked by the server: "
                      + ref.parent().get().display()
                      + " does not exist yet");
        }
      }
      outcomes.put(ref, result.outcome());
      return result;
    } finally {
      progress.add(1);
    }
  }

  private static Result await(Future<Result> future) {
    try {
      return future.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof CliException c) {
        throw c;
      }
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliException(ExitCodes.INTERRUPTED, "interrupted");
    }
  }

  private static java.util.concurrent.ThreadFactory daemon() {
    return r -> {
      Thread t = new Thread(r, "cpctl-apply");
      t.setDaemon(true);
      return t;
    };
  }
}
