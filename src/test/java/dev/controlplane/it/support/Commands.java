package dev.controlplane.it.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Programs of other ecosystems (npm, node) that tests run as their users would. */
public final class Commands {

  private Commands() {}

  /** Runs {@code command} in {@code directory}; fails with its output unless it exits with 0. */
  public static String run(Path directory, List<String> command) throws Exception {
    Process process =
        new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(5, TimeUnit.MINUTES)).as(String.join(" ", command)).isTrue();
    assertThat(process.exitValue()).as(String.join(" ", command) + ":\n" + output).isZero();
    return output;
  }

  public static boolean onPath(String command) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (new File(dir, command).canExecute()) {
        return true;
      }
    }
    return false;
  }
}
