package dev.controlplane.cli.apply;

import dev.controlplane.cli.CliException;
import dev.controlplane.cli.ExitCodes;
import dev.controlplane.cli.output.Progress;
import dev.controlplane.cli.resource.ResourceRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Runs an apply level by level: a level starts when the one before it has finished, its objects are
 * written {@code parallel} at a time, and results are reported in input order. An object whose
 * tenant or namespace failed is skipped. In a dry run nothing is created, so an object whose parent
 * would be created by this apply cannot be checked by the server (it answers 404): it is reported
 * as created, with that said. Outside a dry run the same 404 means the parent is gone again
 * (deleted since this apply created it) and is reported as the failure it is.
 *
 * <p>A server that cannot be reached, or a write without an answer, ends the run: objects that have
 * not started by then are not sent, and once the others of its level (in flight with it) are
 * reported, an {@link Outage} says what was applied, what is unknown and what was not attempted.
 */
final class ApplyRun {

  private final ObjectApplier applier;
  private final int parallel;
  private final boolean dryRun;
  private final Consumer<Result> report;
  private final Map<ResourceRef, Outcome> outcomes = new ConcurrentHashMap<>();

  /** The first failure that stops the run; set by the worker that meets it. */
  private final AtomicReference<CliException> stop = new AtomicReference<>();

  ApplyRun(ObjectApplier applier, int parallel, boolean dryRun, Consumer<Result> report) {
    this.applier = applier;
    this.parallel = parallel;
    this.dryRun = dryRun;
    this.report = report;
  }

  List<Result> apply(ApplyPlan plan, Progress progress) {
    List<Result> results = new ArrayList<>();
    int total = plan.levels().stream().mapToInt(List::size).sum();
    int started = 0;
    ExecutorService pool = Executors.newFixedThreadPool(parallel, daemon());
    try {
      for (List<ApplyPlan.Item> level : plan.levels()) {
        started += level.size();
        Outage outage = level(pool, level, progress, results);
        if (stop.get() != null) {
          throw outage.end(stop.get(), results.size(), total, total - started);
        }
      }
    } finally {
      pool.shutdownNow();
    }
    return results;
  }

  /** Writes one level, reports its results into {@code results}, and tells what an outage left. */
  private Outage level(
      ExecutorService pool, List<ApplyPlan.Item> level, Progress progress, List<Result> results) {
    List<Future<Optional<Result>>> pending = new ArrayList<>();
    for (ApplyPlan.Item item : level) {
      pending.add(pool.submit(() -> one(item, progress)));
    }
    Outage outage = new Outage();
    for (int i = 0; i < level.size(); i++) {
      Optional<Result> result;
      try {
        result = await(pending.get(i));
      } catch (CliException e) {
        stop.compareAndSet(null, e); // the worker set it already, unless this is an interrupt
        outage.failed(level.get(i).ref(), e);
        continue;
      }
      if (result.isEmpty()) {
        outage.notSent();
        continue;
      }
      progress.above(() -> report.accept(result.get()));
      results.add(result.get());
    }
    return outage;
  }

  /** Applies one object; empty when it was not sent because the run is stopping. */
  private Optional<Result> one(ApplyPlan.Item item, Progress progress) {
    try {
      if (stop.get() != null) {
        return Optional.empty();
      }
      Result result = applyUnlessParentFailed(item);
      outcomes.put(item.ref(), result.outcome());
      return Optional.of(result);
    } catch (CliException e) {
      stop.compareAndSet(null, e);
      throw e;
    } finally {
      progress.add(1);
    }
  }

  private Result applyUnlessParentFailed(ApplyPlan.Item item) {
    ResourceRef ref = item.ref();
    Outcome parent = ref.parent().map(outcomes::get).orElse(null);
    if (parent != null && parent.isFailure()) {
      return Result.of(ref, Outcome.SKIPPED, ref.parent().get().display() + " was not applied");
    }
    Result result = applier.apply(item);
    if (dryRun
        && parent == Outcome.CREATED
        && result.outcome() == Outcome.FAILED
        && result.detail().startsWith("not_found")) {
      return Result.of(
          ref,
          Outcome.CREATED,
          "not checked by the server: " + ref.parent().get().display() + " does not exist yet");
    }
    return result;
  }

  private static Optional<Result> await(Future<Optional<Result>> future) {
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
