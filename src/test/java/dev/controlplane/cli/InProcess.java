package dev.controlplane.cli;

import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;

/** Runs cpctl in this JVM without a configuration file: for what it decides before any request. */
public final class InProcess {

  /** How a run ended: its exit code and what it printed. */
  public record Run(int exit, String out, String err) {}

  private InProcess() {}

  public static Run cpctl(String... args) {
    return cpctl(Map.of(), args);
  }

  /** With these environment variables besides a configuration file that does not exist. */
  public static Run cpctl(Map<String, String> env, String... args) {
    Map<String, String> all = new java.util.HashMap<>(env);
    all.putIfAbsent("CPCTL_CONFIG", "/nonexistent/cpctl.yaml");
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit =
        Cpctl.run(
            args, all, InputStream.nullInputStream(), new PrintWriter(out), new PrintWriter(err));
    return new Run(exit, out.toString(), err.toString());
  }
}
