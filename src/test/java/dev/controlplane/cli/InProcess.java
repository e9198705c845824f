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
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit =
        Cpctl.run(
            args,
            Map.of("CPCTL_CONFIG", "/nonexistent/cpctl.yaml"),
            InputStream.nullInputStream(),
            new PrintWriter(out),
            new PrintWriter(err));
    return new Run(exit, out.toString(), err.toString());
  }
}
