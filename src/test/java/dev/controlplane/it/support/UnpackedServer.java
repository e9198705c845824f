package dev.controlplane.it.support;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A runnable JAR unpacked once for the whole test run, with Liberty's own extractor (the code the
 * JAR's launcher runs at every start). Nodes then run its {@code bin/server run} each with an
 * output directory of their own ({@code WLP_OUTPUT_DIR}: logs, workarea, keys), as the launcher
 * would after unpacking, without paying for an unpacking (~130 MB), a launcher JVM and, at the end,
 * a {@code server stop} JVM per node.
 */
final class UnpackedServer {

  /**
   * What the runnable JAR's launcher appends to the unpacked server's jvm.options before each start
   * (unless {@code WLP_JAR_ENABLE_2PC} is set), so that both ways run the same server.
   */
  private static final String LAUNCHER_OPTION = "-Dcom.ibm.tx.jta.disable2PC=true";

  /**
   * Liberty expands the WAR under the server's configuration directory by default, which all nodes
   * of one copy share: three nodes started at once would expand it over each other. Each node
   * expands it into its own output directory instead, as a node of its own unpacked JAR does.
   */
  private static final String EXPAND_PER_NODE =
      "<server><applicationManager autoExpand=\"true\""
          + " expandLocation=\"${server.output.dir}/apps/expanded/\"/></server>\n";

  private static final Map<Path, UnpackedServer> UNPACKED = new HashMap<>();

  private final Path wlp;
  private final String serverName;

  private UnpackedServer(Path wlp, String serverName) {
    this.wlp = wlp;
    this.serverName = serverName;
  }

  /** The unpacked copy of {@code jar}, made on first use; a rebuilt JAR gets a new copy. */
  static synchronized UnpackedServer of(String jar) throws IOException {
    Path source = Path.of(jar).toAbsolutePath();
    String stamp =
        Long.toHexString(Files.size(source)) + "-" + Files.getLastModifiedTime(source).toMillis();
    Path dir = Path.of("target", "it-wlp", source.getFileName() + "-" + stamp).toAbsolutePath();
    UnpackedServer known = UNPACKED.get(dir);
    if (known != null) {
      return known;
    }
    Path complete = dir.resolve(".complete");
    // The run's test JVMs (Fork) start at once: one unpacks, the others wait for it.
    Files.createDirectories(dir.getParent());
    try (FileChannel lock =
            FileChannel.open(
                dir.resolveSibling(dir.getFileName() + ".lock"),
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
        FileLock held = lock.lock()) {
      if (!Files.exists(complete)) {
        unpack(source, dir);
        Files.createFile(complete);
      }
    }
    try (var servers = Files.list(dir.resolve("wlp/usr/servers"))) {
      String name =
          servers
              .map(p -> p.getFileName().toString())
              .findFirst()
              .orElseThrow(() -> new IOException("no Liberty server in " + source));
      UnpackedServer unpacked = new UnpackedServer(dir.resolve("wlp"), name);
      UNPACKED.put(dir, unpacked);
      return unpacked;
    }
  }

  private static void unpack(Path jar, Path dir) throws IOException {
    Directories.deleteTree(dir);
    Files.createDirectories(dir);
    Path log = dir.resolveSibling(dir.getFileName() + ".unpack.log");
    Process unpacking =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                jar.toString(),
                "wlp.lib.extract.SelfExtract",
                dir.toString())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    try {
      if (!unpacking.waitFor(5, TimeUnit.MINUTES) || unpacking.exitValue() != 0) {
        unpacking.destroyForcibly();
        throw new IOException("unpacking " + jar + " failed:\n" + Files.readString(log));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while unpacking " + jar, e);
    }
    try (var servers = Files.list(dir.resolve("wlp/usr/servers"))) {
      for (Path server : servers.toList()) {
        Files.writeString(
            server.resolve("jvm.options"),
            System.lineSeparator() + LAUNCHER_OPTION + System.lineSeparator(),
            StandardOpenOption.CREATE,
            StandardOpenOption.APPEND);
        Path overrides = server.resolve("configDropins/overrides");
        Files.createDirectories(overrides);
        Files.writeString(overrides.resolve("it-expand-per-node.xml"), EXPAND_PER_NODE);
      }
    }
  }

  /** {@code bin/server run} of this copy; the script execs the server JVM in its own process. */
  ProcessBuilder command() {
    return new ProcessBuilder(wlp.resolve("bin/server").toString(), "run", serverName);
  }

  /** The directory this copy was unpacked into, one per build of the JAR. */
  Path directory() {
    return wlp.getParent();
  }

  /** Where a node run with {@code WLP_OUTPUT_DIR=outputDir} writes its logs. */
  Path logsUnder(Path outputDir) {
    return outputDir.resolve(serverName).resolve("logs");
  }
}
