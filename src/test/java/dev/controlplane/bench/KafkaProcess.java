package dev.controlplane.bench;

import dev.controlplane.it.support.Directories;
import dev.controlplane.it.support.Ports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;

/**
 * One Kafka 3.9 node in KRaft mode, broker and controller in one JVM (as {@code
 * config/kraft/server.properties} of the distribution has it), for the side-by-side benchmark: the
 * class path of scripts/kafka-peer/pom.xml ({@code bench.kafkaClasspath}), a freshly formatted log
 * directory under {@code target/}, listeners on 127.0.0.1 only. Its controller appends each batch
 * of metadata records to its Raft log and flushes the log to disk before the records commit, as
 * PostgreSQL's commit and etcd's WAL do.
 */
final class KafkaProcess implements AutoCloseable {

  /**
   * {@code -Dbench.kafkaLingerMs}: how long the controller lets writes accumulate before it flushes
   * them to its log ({@code controller.quorum.append.linger.ms}); unset, Kafka's default (25 ms).
   */
  private static final String LINGER = System.getProperty("bench.kafkaLingerMs");

  private final Process process;
  private final Path dir;
  final int brokerPort;
  final int controllerPort;

  private KafkaProcess(Process process, Path dir, int brokerPort, int controllerPort) {
    this.process = process;
    this.dir = dir;
    this.brokerPort = brokerPort;
    this.controllerPort = controllerPort;
  }

  long pid() {
    return process.pid();
  }

  static KafkaProcess start() throws Exception {
    String classpath = System.getProperty("bench.kafkaClasspath");
    if (classpath == null || classpath.isBlank()) {
      throw new IllegalStateException(
          "-Dbench.kafkaClasspath is not set: run scripts/benchmark-kafka, which resolves it");
    }
    Path dir = Path.of("target", "kafka-bench").toAbsolutePath();
    Directories.deleteTree(dir);
    Files.createDirectories(dir);
    int broker = Ports.free();
    int controller = Ports.free();
    Path config = dir.resolve("server.properties");
    Files.writeString(
        config,
        String.join(
            "\n",
            "process.roles=broker,controller",
            "node.id=1",
            "controller.quorum.voters=1@127.0.0.1:" + controller,
            "listeners=PLAINTEXT://127.0.0.1:" + broker + ",CONTROLLER://127.0.0.1:" + controller,
            "advertised.listeners=PLAINTEXT://127.0.0.1:" + broker,
            "controller.listener.names=CONTROLLER",
            "inter.broker.listener.name=PLAINTEXT",
            "listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
            "log.dirs=" + dir.resolve("data"),
            "num.partitions=1",
            "offsets.topic.replication.factor=1",
            "transaction.state.log.replication.factor=1",
            "transaction.state.log.min.isr=1",
            "auto.create.topics.enable=false",
            LINGER == null ? "" : "controller.quorum.append.linger.ms=" + LINGER,
            ""));
    Path log4j = dir.resolve("log4j.properties");
    Files.writeString(
        log4j,
        String.join(
            "\n",
            "log4j.rootLogger=WARN, stdout",
            "log4j.appender.stdout=org.apache.log4j.ConsoleAppender",
            "log4j.appender.stdout.layout=org.apache.log4j.PatternLayout",
            "log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n",
            ""));
    Path out = Path.of("target", "kafka-bench.log");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String logging = "-Dlog4j.configuration=" + log4j.toUri();
    Process format =
        new ProcessBuilder(
                java,
                "-cp",
                classpath,
                logging,
                "kafka.tools.StorageTool",
                "format",
                "-t",
                Uuid.randomUuid().toString(),
                "-c",
                config.toString())
            .redirectErrorStream(true)
            .redirectOutput(out.toFile())
            .start();
    if (!format.waitFor(60, TimeUnit.SECONDS) || format.exitValue() != 0) {
      throw new IllegalStateException("formatting Kafka's log directory failed; see " + out);
    }
    Process p =
        new ProcessBuilder(
                java, "-Xmx1g", "-cp", classpath, logging, "kafka.Kafka", config.toString())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(out.toFile()))
            .start();
    KafkaProcess kafka = new KafkaProcess(p, dir, broker, controller);
    kafka.awaitReady(Duration.ofSeconds(60));
    return kafka;
  }

  /** An admin client of the broker, as applications reach Kafka. */
  Admin admin() {
    return admin(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, brokerPort);
  }

  /**
   * An admin client of the controller itself ({@code bootstrap.controllers}, KIP-919): its requests
   * skip the broker, which forwards metadata writes to the controller one at a time.
   */
  Admin controllerAdmin() {
    return admin(AdminClientConfig.BOOTSTRAP_CONTROLLERS_CONFIG, controllerPort);
  }

  private static Admin admin(String bootstrapSetting, int port) {
    Properties settings = new Properties();
    settings.put(bootstrapSetting, "127.0.0.1:" + port);
    settings.put(AdminClientConfig.CLIENT_ID_CONFIG, "bench");
    return Admin.create(settings);
  }

  String version() {
    return "Kafka "
        + org.apache.kafka.common.utils.AppInfoParser.getVersion()
        + " (KRaft), controller.quorum.append.linger.ms "
        + (LINGER == null ? "25 (the default)" : LINGER);
  }

  private void awaitReady(Duration timeout) throws Exception {
    Instant deadline = Instant.now().plus(timeout);
    try (Admin admin = admin()) {
      while (Instant.now().isBefore(deadline)) {
        if (!process.isAlive()) {
          throw new IllegalStateException("Kafka exited; see target/kafka-bench.log");
        }
        try {
          admin.describeCluster().nodes().get(2, TimeUnit.SECONDS);
          return;
        } catch (Exception notYet) {
          Thread.sleep(200);
        }
      }
    }
    throw new IllegalStateException("Kafka did not answer within " + timeout);
  }

  @Override
  public void close() throws Exception {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
    Directories.deleteTree(dir);
  }
}
