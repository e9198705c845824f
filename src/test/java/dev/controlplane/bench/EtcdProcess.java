package dev.controlplane.bench;

import dev.controlplane.it.support.Directories;
import dev.controlplane.it.support.Grpc;
import dev.controlplane.it.support.Ports;
import io.etcd.jetcd.api.KVGrpc;
import io.etcd.jetcd.api.RangeRequest;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * One etcd member (Debian's {@code etcd-server} package, {@code /usr/bin/etcd}) for the
 * side-by-side benchmark: bound to 127.0.0.1 only, a fresh data directory under {@code target/},
 * default durability (the WAL is fsynced before a write is acknowledged, as PostgreSQL's commit
 * is).
 */
final class EtcdProcess implements AutoCloseable {

  private final Process process;
  private final Path dataDir;
  final int clientPort;

  private EtcdProcess(Process process, Path dataDir, int clientPort) {
    this.process = process;
    this.dataDir = dataDir;
    this.clientPort = clientPort;
  }

  long pid() {
    return process.pid();
  }

  static EtcdProcess start() throws Exception {
    String binary = System.getProperty("bench.etcd", "/usr/bin/etcd");
    if (!new File(binary).canExecute()) {
      throw new IllegalStateException(
          binary + " not found: apt-get install etcd-server (Debian's etcd 3.4)");
    }
    Path dataDir = Path.of("target", "etcd-bench").toAbsolutePath();
    Directories.deleteTree(dataDir);
    Files.createDirectories(dataDir.getParent());
    int client = Ports.free();
    int peer = Ports.free();
    String clientUrl = "http://127.0.0.1:" + client;
    String peerUrl = "http://127.0.0.1:" + peer;
    Process p =
        new ProcessBuilder(
                binary,
                "--name=bench",
                "--data-dir=" + dataDir,
                "--listen-client-urls=" + clientUrl,
                "--advertise-client-urls=" + clientUrl,
                "--listen-peer-urls=" + peerUrl,
                "--initial-advertise-peer-urls=" + peerUrl,
                "--initial-cluster=bench=" + peerUrl,
                "--quota-backend-bytes=4294967296",
                "--log-level=warn")
            .redirectErrorStream(true)
            .redirectOutput(Path.of("target", "etcd-bench.log").toFile())
            .start();
    EtcdProcess etcd = new EtcdProcess(p, dataDir, client);
    etcd.awaitReady(Duration.ofSeconds(30));
    return etcd;
  }

  String version() throws Exception {
    Process v =
        new ProcessBuilder(System.getProperty("bench.etcd", "/usr/bin/etcd"), "--version")
            .redirectErrorStream(true)
            .start();
    String out = new String(v.getInputStream().readAllBytes());
    v.waitFor();
    return out.lines().findFirst().orElse("etcd");
  }

  private void awaitReady(Duration timeout) throws Exception {
    Instant deadline = Instant.now().plus(timeout);
    while (Instant.now().isBefore(deadline)) {
      if (!process.isAlive()) {
        throw new IllegalStateException("etcd exited; see target/etcd-bench.log");
      }
      try (Grpc grpc = new Grpc(clientPort, null)) {
        KVGrpc.newBlockingStub(grpc.channel())
            .withDeadlineAfter(1, java.util.concurrent.TimeUnit.SECONDS)
            .range(
                RangeRequest.newBuilder()
                    .setKey(com.google.protobuf.ByteString.copyFromUtf8("x"))
                    .build());
        return;
      } catch (RuntimeException notYet) {
        Thread.sleep(200);
      }
    }
    throw new IllegalStateException("etcd did not answer within " + timeout);
  }

  @Override
  public void close() throws Exception {
    process.destroy();
    process.waitFor();
    Directories.deleteTree(dataDir);
  }
}
