package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.it.support.Ports;
import dev.controlplane.it.support.ServerProcess;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.TestDatabase;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A node that cannot run ends its process: exit status 3, one log line naming the environment
 * variable, file key or port, well within a minute of being started, and liveness never UP
 * meanwhile.
 */
class StartupFailureIT {

  private static final Duration EXIT_WITHIN = Duration.ofSeconds(60);
  private static final String CANNOT_RUN = "control plane cannot run: ";

  private record Outcome(int exit, Duration took, String log, List<Integer> liveness) {}

  private static Map<String, String> environment(int http, int grpc) throws Exception {
    String db = TestDatabase.url(TestDatabase.name() + "_empty");
    TestDatabase.reset(db);
    var env = SharedServer.baseEnvironment(http, grpc, db);
    env.put("SERVICE_CONTROLPLANE_DB_MIGRATE", "migrate");
    return env;
  }

  /** Starts a node, polls its liveness until it exits, and returns how it ended. */
  private static Outcome run(String name, Map<String, String> env) throws Exception {
    return run(new ServerProcess(name, env), env);
  }

  private static Outcome run(ServerProcess process, Map<String, String> env) throws Exception {
    int http = Integer.parseInt(env.get("SERVICE_CONTROLPLANE_HTTP_PORT"));
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();
    List<Integer> liveness = new ArrayList<>();
    long started = System.nanoTime();
    try (ServerProcess node = process.start()) {
      while (node.isAlive() && System.nanoTime() - started < EXIT_WITHIN.toNanos()) {
        liveness.add(live(client, http));
        Thread.sleep(200);
      }
      int exit = node.awaitExit(Duration.ofSeconds(5));
      return new Outcome(
          exit, Duration.ofNanos(System.nanoTime() - started), node.logText(), liveness);
    }
  }

  private static int live(HttpClient client, int port) {
    try {
      return client
          .send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health/live"))
                  .timeout(Duration.ofSeconds(1))
                  .build(),
              HttpResponse.BodyHandlers.discarding())
          .statusCode();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  private static void assertEndedWith(Outcome outcome, String... fragments) {
    assertThat(outcome.exit()).as(outcome.log()).isEqualTo(3);
    assertThat(outcome.took()).isLessThan(EXIT_WITHIN);
    String line = outcome.log().lines().filter(l -> l.contains(CANNOT_RUN)).findFirst().orElse("");
    assertThat(line).as("the one line that says why, in:\n" + outcome.log()).contains(fragments);
  }

  private static void assertNeverLive(Outcome outcome) {
    assertThat(outcome.liveness())
        .as("liveness while the node had not started")
        .doesNotContain(200);
  }

  /**
   * Seven invalid settings of six kinds (an integer, a duration, a value out of range, a missing
   * key, fallbacks of a credential that is not set, a Raft data directory that cannot be made, an
   * unknown key in the configuration file): one start names them all, so an operator fixes every
   * one before trying again. Started with {@code java -jar}, as an operator does: the exit status
   * goes through the JAR's launcher.
   */
  @Test
  void everyInvalidSettingEndsTheProcessNamedInOneLine() throws Exception {
    Path file = configFile("token_ttl: 5m\nheartbeat_intervall: 3s\n");
    var env = withConfigFile(file);
    Path notADirectory = Files.createTempFile("not-a-directory-", "");
    env.put("SERVICE_CONTROLPLANE_NODE_ID", "cp1");
    env.put(
        "SERVICE_CONTROLPLANE_CLUSTER_MEMBERS",
        "cp1=127.0.0.1:" + Ports.free() + ",cp2=127.0.0.1:" + Ports.free());
    env.put("SERVICE_CONTROLPLANE_RAFT_DATA_DIR", notADirectory.resolve("raft").toString());
    env.put("SERVICE_CONTROLPLANE_WATCH_WINDOW", "ten");
    env.put("SERVICE_CONTROLPLANE_HEARTBEAT_INTERVAL", "5 seconds");
    env.put("SERVICE_CONTROLPLANE_AUDIT_RETENTION", "0d");
    Path noCaFile = notADirectory.resolveSibling(notADirectory.getFileName() + "-ca.pem");
    env.put("SERVICE_CONTROLPLANE_OIDC_CA_FILE", noCaFile.toString());
    env.remove("SERVICE_CONTROLPLANE_KEY_ENCRYPTION_KEY");
    env.remove("SERVICE_CONTROLPLANE_BROKER_TOKEN");
    env.put("SERVICE_CONTROLPLANE_BROKER_TOKEN_FALLBACKS", "an-old-broker-token");
    Outcome outcome = run(new ServerProcess("bad-settings", env).viaRunnableJar(), env);
    assertEndedWith(
        outcome,
        "8 settings are invalid: config file " + file,
        "'heartbeat_intervall' is not a setting",
        "SERVICE_CONTROLPLANE_WATCH_WINDOW = 'ten' (from the environment) is not an integer",
        "SERVICE_CONTROLPLANE_HEARTBEAT_INTERVAL = '5 seconds'",
        "SERVICE_CONTROLPLANE_AUDIT_RETENTION = '0d' (from the environment) is not positive",
        "SERVICE_CONTROLPLANE_OIDC_CA_FILE = '"
            + noCaFile
            + "' (from the environment) cannot be used: "
            + noCaFile
            + " is not a readable PEM certificate file",
        "SERVICE_CONTROLPLANE_KEY_ENCRYPTION_KEY is not set",
        "SERVICE_CONTROLPLANE_BROKER_TOKEN_FALLBACKS is set but SERVICE_CONTROLPLANE_BROKER_TOKEN"
            + " is not",
        "SERVICE_CONTROLPLANE_RAFT_DATA_DIR = '"
            + notADirectory.resolve("raft")
            + "' (from the environment) cannot be made a directory");
    assertNeverLive(outcome);
  }

  /**
   * The most common failed start: the database refuses the node. It ended with Flyway's exception
   * and a hundred lines of stack naming no setting.
   */
  @Test
  void aDatabaseThatRefusesTheNodeEndsTheProcessNamingTheSettingsToCheck() throws Exception {
    var env = environment(Ports.free(), Ports.free());
    env.put("SERVICE_CONTROLPLANE_DB_PASSWORD", "not-the-password-42");
    Outcome outcome = run("wrong-db-password", env);
    assertEndedWith(
        outcome,
        "cannot connect to the database: ",
        "password authentication failed",
        "(check SERVICE_CONTROLPLANE_DB_USER and SERVICE_CONTROLPLANE_DB_PASSWORD)");
    assertThat(outcome.log()).doesNotContain("not-the-password-42").doesNotContain("\tat org.");
    assertNeverLive(outcome);
  }

  /** A file that is not YAML gives no value at all: it is named alone, before any other check. */
  @Test
  void aConfigFileThatIsNotYamlEndsTheProcessNamingTheFile() throws Exception {
    Path file = configFile("oidc_allowed_algorithms: [RS256\n");
    Outcome outcome = run("config-malformed", withConfigFile(file));
    assertEndedWith(outcome, "config file " + file, "not valid YAML");
    assertNeverLive(outcome);
  }

  private static Path configFile(String yaml) throws IOException {
    Path file = Files.createTempFile("controlplane-", ".yaml");
    Files.writeString(file, yaml);
    return file;
  }

  private static Map<String, String> withConfigFile(Path file) throws Exception {
    var env = environment(Ports.free(), Ports.free());
    env.put("SERVICE_CONTROLPLANE_CONFIG_FILE", file.toString());
    return env;
  }

  /**
   * The HTTP, gRPC, cluster and bootstrap ports all held by another process: one start names all
   * four with their settings, and stops before it touched its database (no migration ran) or joined
   * a cluster.
   */
  @Test
  void busyHttpGrpcClusterAndBootstrapPortsAreNamedInOneStartBeforeTheDatabaseIsTouched()
      throws Exception {
    try (ServerSocket httpTaken = listen(Ports.free());
        ServerSocket grpcTaken = listen(Ports.free());
        ServerSocket raftTaken = listen(Ports.free());
        ServerSocket bootstrapTaken = listen(Ports.free())) {
      int http = httpTaken.getLocalPort();
      int grpc = grpcTaken.getLocalPort();
      int raft = raftTaken.getLocalPort();
      int bootstrap = bootstrapTaken.getLocalPort();
      var env = environment(http, grpc);
      env.put("SERVICE_CONTROLPLANE_NODE_ID", "cp1");
      env.put(
          "SERVICE_CONTROLPLANE_CLUSTER_MEMBERS",
          "cp1=127.0.0.1:" + raft + ",cp2=127.0.0.1:" + Ports.free());
      env.put("SERVICE_CONTROLPLANE_RAFT_DATA_DIR", Files.createTempDirectory("raft-").toString());
      env.put("SERVICE_BOOTSTRAP_ENABLED", "true");
      env.put("SERVICE_BOOTSTRAP_BIND_ADDR", "127.0.0.1:" + bootstrap);
      env.put("SERVICE_BOOTSTRAP_TOKEN", SharedServer.BOOTSTRAP_TOKEN);
      Outcome outcome = run("busy-ports", env);
      assertEndedWith(
          outcome,
          "cannot listen for HTTP on 127.0.0.1:" + http + " (SERVICE_CONTROLPLANE_HTTP_PORT)",
          "cannot listen for gRPC on 127.0.0.1:" + grpc + " (SERVICE_CONTROLPLANE_GRPC_PORT)",
          "cannot listen for the cluster on 127.0.0.1:"
              + raft
              + " (node cp1's address in SERVICE_CONTROLPLANE_CLUSTER_MEMBERS)",
          "cannot listen for bootstrap on 127.0.0.1:"
              + bootstrap
              + " (SERVICE_BOOTSTRAP_BIND_ADDR)",
          "the port is in use");
      assertNeverLive(outcome);
      assertThat(
              TestDatabase.queryLong(
                  env.get("SERVICE_CONTROLPLANE_DB_URL"),
                  "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'"))
          .as("tables made in the node's database")
          .isZero();
      assertThat(outcome.log()).doesNotContain("joined the Raft cluster");
    }
  }

  @Test
  void aClusterAddressOfAnotherMachineEndsTheProcessNamingTheAddressAndTheNodeId()
      throws Exception {
    var env = environment(Ports.free(), Ports.free());
    env.put("SERVICE_CONTROLPLANE_NODE_ID", "cp1");
    // TEST-NET-1 (RFC 5737): no interface of this machine has it; nothing is sent to it.
    env.put(
        "SERVICE_CONTROLPLANE_CLUSTER_MEMBERS", "cp1=192.0.2.1:7800,cp2=127.0.0.1:" + Ports.free());
    env.put("SERVICE_CONTROLPLANE_RAFT_DATA_DIR", Files.createTempDirectory("raft-").toString());
    Outcome outcome = run("foreign-raft-address", env);
    assertEndedWith(
        outcome,
        "cannot listen for the cluster on 192.0.2.1:7800",
        "no network interface of this machine has that address",
        "SERVICE_CONTROLPLANE_NODE_ID (this one is 'cp1')");
    assertNeverLive(outcome);
  }

  /** A socket that holds the port: connections queue in its backlog and are never answered. */
  private static ServerSocket listen(int port) throws IOException {
    ServerSocket socket = new ServerSocket();
    socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
    return socket;
  }
}
