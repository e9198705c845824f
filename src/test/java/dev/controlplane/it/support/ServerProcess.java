package dev.controlplane.it.support;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * A control plane node as a real separate JVM: the server of the packaged Liberty runnable JAR,
 * configured only through environment variables, bound to 127.0.0.1. Its console goes to
 * target/it-logs/NAME.log.
 *
 * <p>By default the node runs the JAR's server unpacked once for the whole run ({@link
 * UnpackedServer}), each node with an output directory of its own: the same server, configuration
 * and application as {@code java -jar}, without its unpacking and launcher JVM at every start.
 * {@link #viaRunnableJar()} starts it exactly as an operator does, {@code java -jar}: the shared
 * server and a start that fails do, so that every run also goes through the launcher; {@code
 * -Dit.node.runnableJar=true} starts every node that way.
 */
public final class ServerProcess implements AutoCloseable {

  private final String name;
  private final Map<String, String> env;
  private final Path log;
  private String jar;
  private boolean viaRunnableJar = Boolean.getBoolean("it.node.runnableJar");

  /** Set by the integration tests' configuration (pom.xml); benchmarks start nodes without it. */
  private boolean classArchive = Boolean.getBoolean("it.node.classArchive");

  private Process process;
  private Path extractDir;
  private Path logsDir;

  public ServerProcess(String name, Map<String, String> env) {
    this.name = name;
    this.env = new HashMap<>(env);
    this.log = Path.of("target", "it-logs", name + ".log");
  }

  /** Runs {@code runnableJar} instead of the build's ({@link #jar()}): another build to compare. */
  public ServerProcess withJar(String runnableJar) {
    this.jar = runnableJar;
    return this;
  }

  /** Starts the node with {@code java -jar}, as an operator does, instead of the unpacked copy. */
  public ServerProcess viaRunnableJar() {
    this.viaRunnableJar = true;
    return this;
  }

  /** Starts without the run's class archive ({@link NodeClassArchive}): the node that makes it. */
  ServerProcess withoutClassArchive() {
    this.classArchive = false;
    return this;
  }

  public static String jar() {
    String jar = System.getProperty("controlplane.jar", "target/controlplane.jar");
    if (!new File(jar).isFile()) {
      throw new IllegalStateException(jar + " does not exist: run mvn package first");
    }
    return jar;
  }

  public ServerProcess start() throws IOException {
    Files.createDirectories(log.getParent());
    extractDir = Files.createTempDirectory("cp-" + name + "-");
    String runnableJar = jar != null ? jar : jar();
    ProcessBuilder builder;
    if (viaRunnableJar) {
      builder =
          new ProcessBuilder(
              Path.of(System.getProperty("java.home"), "bin", "java").toString(),
              "-Xmx512m",
              "-XX:TieredStopAtLevel=1",
              "-XX:+UseSerialGC",
              "-jar",
              runnableJar);
      builder.environment().put("WLP_JAR_EXTRACT_DIR", extractDir.toString());
      logsDir = null;
    } else {
      UnpackedServer unpacked = UnpackedServer.of(runnableJar);
      builder = unpacked.command();
      builder.environment().put("WLP_OUTPUT_DIR", extractDir.toString());
      // What the launcher does when JAVA_HOME is not set: run the server on this JVM's Java.
      builder.environment().putIfAbsent("JAVA_HOME", System.getProperty("java.home"));
      logsDir = unpacked.logsUnder(extractDir);
    }
    builder.redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().putAll(env);
    if (!viaRunnableJar && classArchive) {
      String archive = NodeClassArchive.optionsFor(UnpackedServer.of(runnableJar).directory());
      appendJvmArgs(builder, archive);
    }
    // The server JVM takes its options from liberty/jvm.options and JVM_ARGS (the runnable JAR's
    // launcher JVM, given the options above, only unpacks Liberty and starts the server).
    String heap = System.getProperty("server.heap");
    String options =
        (System.getProperty("it.node.jvmArgs", "") + (heap == null ? "" : " -Xmx" + heap)).trim();
    appendJvmArgs(builder, options);
    process = builder.start();
    return this;
  }

  private static void appendJvmArgs(ProcessBuilder builder, String options) {
    if (!options.isEmpty()) {
      builder.environment().merge("JVM_ARGS", options, (given, more) -> given + " " + more);
    }
  }

  /** Waits until /health/ready says UP; fails with the log's tail when the process dies first. */
  public ServerProcess awaitReady(Duration timeout) throws Exception {
    var builder = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1));
    String tlsCert = env.get("SERVICE_CONTROLPLANE_TLS_CERT_PATH");
    if (tlsCert != null) { // a TLS node: trust exactly the certificate it was given
      builder.sslContext(Certificates.trusting(Path.of(tlsCert)));
    }
    HttpClient http = builder.build();
    Instant deadline = Instant.now().plus(timeout);
    URI ready =
        URI.create(
            (tlsCert != null ? "https" : "http")
                + "://127.0.0.1:"
                + env.get("SERVICE_CONTROLPLANE_HTTP_PORT")
                + "/health/ready");
    while (Instant.now().isBefore(deadline)) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            name + " exited with " + process.exitValue() + ":\n" + tail());
      }
      try {
        var response =
            http.send(
                HttpRequest.newBuilder(ready).timeout(Duration.ofSeconds(2)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() == 200) {
          return this;
        }
      } catch (IOException notYet) {
        // not listening yet
      }
      Thread.sleep(250);
    }
    throw new IllegalStateException(name + " not ready after " + timeout + ":\n" + tail());
  }

  public boolean isAlive() {
    return process != null && process.isAlive();
  }

  /** Waits for the process to exit by itself and returns its exit code. */
  public int awaitExit(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
      throw new IllegalStateException(name + " still running after " + timeout);
    }
    return process.exitValue();
  }

  public String tail() {
    try {
      var lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  public String logText() throws IOException {
    return Files.readString(log);
  }

  /**
   * Liberty's FFDC directory of this server ({@code logs/ffdc} of its output directory), where it
   * writes an incident file for every unexpected exception.
   */
  public Path ffdcDir() throws IOException {
    if (logsDir != null) {
      return logsDir.resolve("ffdc");
    }
    try (var servers = Files.list(extractDir.resolve("wlp/usr/servers"))) {
      return servers
          .map(p -> p.resolve("logs/ffdc"))
          .findFirst()
          .orElseThrow(() -> new IOException("no Liberty server under " + extractDir));
    }
  }

  public long pid() {
    return process.pid();
  }

  /**
   * The JVM that runs the server. The runnable JAR's launcher starts the server as a child JVM (to
   * add its Java agent), so signals meant for the server must go to that child; {@code bin/server
   * run} execs the server JVM, so without the launcher that is the process itself.
   */
  public long serverPid() {
    return process
        .descendants()
        .filter(p -> p.info().command().map(c -> c.endsWith("java")).orElse(false))
        .reduce((first, second) -> second)
        .map(ProcessHandle::pid)
        .orElse(process.pid());
  }

  /** SIGKILL, as a crash would: the server JVM and its launcher. */
  public void kill() {
    if (process != null) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      try {
        process.waitFor();
        awaitDescendantsGone(java.time.Duration.ofSeconds(10));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** SIGTERM the server JVM, as an orchestrator stopping it would. */
  public void terminate() throws IOException, InterruptedException {
    signal("TERM");
  }

  /** SIGSTOP the server JVM: it stays connected but does nothing, like a long GC pause. */
  public void freeze() throws IOException, InterruptedException {
    signal("STOP");
  }

  /** SIGCONT after {@link #freeze()}. */
  public void thaw() throws IOException, InterruptedException {
    signal("CONT");
  }

  private void signal(String name) throws IOException, InterruptedException {
    long server = serverPid();
    int exit =
        new ProcessBuilder("kill", "-" + name, Long.toString(server)).inheritIO().start().waitFor();
    if (exit != 0) {
      throw new IllegalStateException("kill -" + name + " " + server + " failed with " + exit);
    }
  }

  private void awaitDescendantsGone(java.time.Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (process.descendants().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
  }

  @Override
  public void close() {
    if (process != null && process.isAlive()) {
      java.util.List<ProcessHandle> children = process.descendants().toList();
      process.destroy();
      try {
        if (!process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
          process.destroyForcibly().waitFor();
        }
        children.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        process.destroyForcibly();
      }
    }
    deleteExtractDir();
  }

  /**
   * The runnable JAR unpacks about 130 MB per process, an unpacked server writes its logs and
   * workarea: remove them once the process is gone.
   */
  private void deleteExtractDir() {
    if (extractDir == null || (process != null && process.isAlive())) {
      return;
    }
    try {
      Directories.deleteTree(extractDir);
    } catch (IOException ignored) {
      // Only temporary files; a leftover does no harm.
    }
  }
}
