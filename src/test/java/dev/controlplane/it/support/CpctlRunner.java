package dev.controlplane.it.support;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the packaged {@code target/cpctl.jar} as a separate process, the way an operator does. Each
 * runner has a HOME of its own (a temporary directory), so the configuration it writes is the
 * test's alone; no {@code CPCTL_*} or {@code XDG_CONFIG_HOME} variable of the test JVM leaks in.
 */
public final class CpctlRunner {

  /** One finished run: exit code, stdout, stderr. */
  public record Run(int exit, String out, String err) {
    public List<String> lines() {
      return out.lines().toList();
    }

    @Override
    public String toString() {
      return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
  }

  private final Path home;
  private final Map<String, String> env = new HashMap<>();

  public CpctlRunner(Path home) {
    this.home = home;
  }

  public static String jar() {
    String jar = System.getProperty("cpctl.jar", "target/cpctl.jar");
    if (!new File(jar).isFile()) {
      throw new IllegalStateException(jar + " does not exist: run mvn package first");
    }
    return jar;
  }

  public Path home() {
    return home;
  }

  /** An environment variable of every later run. */
  public CpctlRunner env(String name, String value) {
    env.put(name, value);
    return this;
  }

  public Run run(String... args) {
    return pipe(null, args);
  }

  /** Runs cpctl with {@code stdin} (null: none) and waits up to two minutes. */
  public Run pipe(String stdin, String... args) {
    try {
      Process process = start(stdin, args);
      Path out = home.resolve("last.out");
      Path err = home.resolve("last.err");
      if (!process.waitFor(120, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new AssertionError(
            "cpctl " + String.join(" ", args) + " did not finish in 2 minutes");
      }
      return new Run(
          process.exitValue(),
          Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Starts cpctl; its stdout goes to {@code home/last.out}, stderr to {@code home/last.err}. */
  public Process start(String stdin, String... args) throws IOException {
    return start(home.resolve("last.out"), home.resolve("last.err"), stdin, args);
  }

  public Process start(Path out, Path err, String stdin, String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-XX:+UseSerialGC");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-jar");
    command.add(jar());
    command.addAll(List.of(args));
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
    Map<String, String> environment = builder.environment();
    environment.keySet().removeIf(k -> k.startsWith("CPCTL_") || k.equals("XDG_CONFIG_HOME"));
    environment.put("HOME", home.toString());
    environment.putAll(env);
    if (stdin == null) {
      builder.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    }
    Process process = builder.start();
    if (stdin != null) {
      try (var in = process.getOutputStream()) {
        in.write(stdin.getBytes(StandardCharsets.UTF_8));
      }
    }
    return process;
  }

  /** Writes {@code text} to a file under this runner's HOME and returns its path. */
  public String file(String name, String text) {
    try {
      Path file = home.resolve(name);
      Files.createDirectories(file.getParent());
      Files.writeString(file, text, StandardCharsets.UTF_8);
      return file.toString();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A runner with a context {@code it} for the shared server, authenticated as the operator. */
  public static CpctlRunner forSharedServer(Path home) {
    CpctlRunner cpctl =
        new CpctlRunner(home)
            .env("IT_OPERATOR_TOKEN", SharedServer.OPERATOR_TOKEN)
            .env("IT_BROKER_TOKEN", SharedServer.BROKER_TOKEN);
    Run created =
        cpctl.run(
            "config",
            "set-context",
            "it",
            "--server",
            "http://127.0.0.1:" + SharedServer.httpPort(),
            "--grpc-server",
            "127.0.0.1:" + SharedServer.grpcPort(),
            "--operator-token-env",
            "IT_OPERATOR_TOKEN",
            "--broker-token-env",
            "IT_BROKER_TOKEN");
    if (created.exit() != 0) {
      throw new AssertionError("set-context failed: " + created);
    }
    return cpctl;
  }
}
