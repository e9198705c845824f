package dev.controlplane.it.support;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A class-data-sharing archive of what a node loads at start, made once per run and mapped by the
 * nodes started after it. The suite is CPU-bound on 2 cores, and a node's start is about a third of
 * its CPU; with the archive a start spends 2.5–4 s less CPU (of 16–21 s on an idle machine), mostly
 * the JDK classes Liberty loads beyond the JDK's own archive: Liberty's Java agent appends to the
 * boot class path, so the JVM shares only boot-loader classes from it.
 *
 * <p>The first test JVM to ask starts a node of its own in the background on the run's {@code
 * _archive} database, and when it is ready has the JVM dump what it loaded ({@code jcmd VM.cds
 * dynamic_dump}). Nodes started meanwhile, and every node of a run whose archive could not be made,
 * run without it, as a deployment does. Tests never depend on it: it changes how fast classes load,
 * not which ones.
 */
final class NodeClassArchive {

  /**
   * Liberty's Java agent is loaded at every start; a JVM refuses to dump or map an archive beside
   * an agent unless told it is only for testing.
   */
  private static final String ALLOW =
      "-XX:+UnlockDiagnosticVMOptions -XX:+AllowArchivingWithJavaAgent";

  private static boolean asked;

  private NodeClassArchive() {}

  /**
   * The options that map the archive of {@code unpacked}, or none while it does not exist yet. The
   * first call of the run starts making it.
   */
  static synchronized String optionsFor(Path unpacked) {
    Path archive = archiveOf(unpacked);
    if (Files.isRegularFile(archive)) {
      return ALLOW + " -XX:SharedArchiveFile=" + archive;
    }
    if (!asked) {
      asked = true;
      claimAndMake(unpacked, archive);
    }
    return "";
  }

  private static Path archiveOf(Path unpacked) {
    return unpacked.resolveSibling(unpacked.getFileName() + ".jsa");
  }

  /** The run's test JVMs start at once: the one that creates the claim makes the archive. */
  private static void claimAndMake(Path unpacked, Path archive) {
    try {
      Files.createFile(unpacked.resolveSibling(unpacked.getFileName() + ".jsa.claimed"));
    } catch (FileAlreadyExistsException another) {
      return;
    } catch (IOException e) {
      System.err.println("no class archive for the test nodes: " + e.getMessage());
      return;
    }
    Thread maker =
        new Thread(
            () -> {
              try {
                make(archive);
              } catch (Exception e) {
                System.err.println(
                    "no class archive for the test nodes, they start without one: " + e);
              }
            },
            "node-class-archive");
    maker.setDaemon(true);
    maker.start();
  }

  private static void make(Path archive) throws Exception {
    String db = TestDatabase.url(TestDatabase.name() + "_archive");
    TestDatabase.reset(db);
    Map<String, String> env = SharedServer.baseEnvironment(Ports.free(), Ports.free(), db);
    env.put("SERVICE_CONTROLPLANE_DB_MIGRATE", "migrate");
    // The dump's notes on each class it leaves out (thousands of lines) stay out of the log.
    env.put("JVM_ARGS", ALLOW + " -XX:+RecordDynamicDumpInfo -Xlog:cds*=off");
    Path partial = archive.resolveSibling(archive.getFileName() + ".partial");
    // To a file, so that the time limit holds even if jcmd never closes its output.
    Path said = archive.resolveSibling(archive.getFileName() + ".jcmd.log");
    try (ServerProcess node = new ServerProcess("class-archive", env).withoutClassArchive()) {
      node.start().awaitReady(Duration.ofSeconds(180));
      Process dump =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                  Long.toString(node.serverPid()),
                  "VM.cds",
                  "dynamic_dump",
                  partial.toString())
              .redirectErrorStream(true)
              .redirectOutput(said.toFile())
              .start();
      if (!dump.waitFor(3, TimeUnit.MINUTES) || dump.exitValue() != 0 || !Files.exists(partial)) {
        dump.destroyForcibly();
        throw new IOException("jcmd VM.cds dynamic_dump failed: " + Files.readString(said).strip());
      }
    }
    Files.move(partial, archive, StandardCopyOption.ATOMIC_MOVE);
  }
}
