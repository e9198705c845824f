package dev.controlplane.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** A command that does something: it reaches the run's {@link Session} and returns an exit code. */
public abstract class BaseCommand implements Callable<Integer> {

  @Spec protected CommandSpec spec;

  protected Session session() {
    return ((Cpctl) spec.root().userObject()).session();
  }

  @Override
  public final Integer call() throws Exception {
    return execute();
  }

  protected abstract int execute() throws Exception;
}
