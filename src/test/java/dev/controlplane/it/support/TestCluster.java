package dev.controlplane.it.support;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A cluster of real control plane JVMs on loopback (the runnable JAR), each with its own HTTP, gRPC
 * and Raft port, sharing one database of its own ({@code <test db>_cluster}). Nodes can be killed
 * (SIGKILL), frozen (SIGSTOP), thawed (SIGCONT) and started again.
 */
public final class TestCluster implements AutoCloseable {

  private static final HttpClient PROBE =
      HttpClient.newBuilder()
          .connectTimeout(Duration.ofSeconds(1))
          .version(HttpClient.Version.HTTP_1_1)
          .build();

  private final List<Node> nodes = new ArrayList<>();

  private TestCluster() {}

  public static String dbUrl() {
    return TestDatabase.url(TestDatabase.name() + "_cluster");
  }

  /**
   * Starts {@code size} nodes against an emptied cluster database and waits until all are ready.
   */
  public static TestCluster start(String name, int size, Map<String, String> extraEnv)
      throws Exception {
    TestDatabase.reset(dbUrl());
    return start(name, size, extraEnv, dbUrl());
  }

  /**
   * Starts {@code size} nodes against {@code jdbcUrl} the way operators start a cluster: all at
   * once, in a random order, each up to a second after the previous one, and waits until all are
   * ready. Node {@code cpN}'s cluster transport binds 127.0.0.(10+N) (20+N in the run's second test
   * JVM, {@link Fork}), so that a {@link Partition} can cut it off while its HTTP, gRPC and
   * database traffic stay on 127.0.0.1.
   */
  public static TestCluster start(
      String name, int size, Map<String, String> extraEnv, String jdbcUrl) throws Exception {
    TestCluster cluster = new TestCluster();
    List<String> members = new ArrayList<>();
    for (int i = 1; i <= size; i++) {
      members.add("cp" + i + "=" + clusterAddress("cp" + i) + ":" + Ports.free());
    }
    Path raftDir =
        Path.of("target", "it-raft", name + "-" + System.currentTimeMillis()).toAbsolutePath();
    for (int i = 1; i <= size; i++) {
      String id = "cp" + i;
      Map<String, String> env = SharedServer.baseEnvironment(Ports.free(), Ports.free(), jdbcUrl);
      env.put("SERVICE_CONTROLPLANE_DB_MIGRATE", "migrate");
      env.put("SERVICE_CONTROLPLANE_NODE_ID", id);
      env.put("SERVICE_CONTROLPLANE_CLUSTER_MEMBERS", String.join(",", members));
      env.put("SERVICE_CONTROLPLANE_RAFT_DATA_DIR", raftDir.resolve(id).toString());
      // A port of its own, used only where the test enables bootstrap.
      env.put("SERVICE_BOOTSTRAP_BIND_ADDR", "127.0.0.1:" + Ports.free());
      env.putAll(extraEnv);
      cluster.nodes.add(new Node(name + "-" + id, id, env));
    }
    try {
      List<Node> order = new ArrayList<>(cluster.nodes);
      java.util.Collections.shuffle(order);
      for (Node node : order) {
        node.start();
        Thread.sleep(java.util.concurrent.ThreadLocalRandom.current().nextLong(1000));
      }
      for (Node node : cluster.nodes) {
        node.awaitReady(Duration.ofSeconds(240));
      }
    } catch (Exception e) {
      cluster.close();
      throw e;
    }
    return cluster;
  }

  /**
   * The loopback address node {@code id} ({@code cpN}) binds its cluster transport to: 127.0.0.1N
   * in the run's first test JVM, 127.0.0.2N in the second ({@link Fork}).
   */
  public static String clusterAddress(String id) {
    return "127.0.0." + (10 * Fork.number() + Integer.parseInt(id.substring(2)));
  }

  public List<Node> nodes() {
    return List.copyOf(nodes);
  }

  public Node node(String id) {
    return nodes.stream().filter(n -> n.id.equals(id)).findFirst().orElseThrow();
  }

  public List<Node> others(Node node) {
    return nodes.stream().filter(n -> n != node).toList();
  }

  /**
   * Waits until exactly one of {@code among} reports role leader and all of them name it; returns
   * it. Nodes that do not answer are left out of the agreement (they may be dead or frozen).
   */
  public Node awaitLeader(List<Node> among, Duration timeout) throws InterruptedException {
    Instant deadline = Instant.now().plus(timeout);
    String last = "";
    while (Instant.now().isBefore(deadline)) {
      Map<Node, JsonNode> views = new HashMap<>();
      for (Node n : among) {
        n.readiness().ifPresent(data -> views.put(n, data));
      }
      List<Node> leaders =
          views.entrySet().stream()
              .filter(e -> e.getValue().path("role").asText().equals("leader"))
              .map(Map.Entry::getKey)
              .toList();
      if (leaders.size() == 1 && views.size() == among.size()) {
        String id = leaders.get(0).id;
        if (views.values().stream().allMatch(v -> v.path("leader").asText().equals(id))) {
          return leaders.get(0);
        }
      }
      last =
          views.entrySet().stream()
              .map(e -> e.getKey().id + "=" + e.getValue())
              .collect(Collectors.joining("; "));
      Thread.sleep(100);
    }
    throw new AssertionError(
        "no single agreed leader among " + among + " after " + timeout + ": " + last);
  }

  public Node awaitLeader(Duration timeout) throws InterruptedException {
    return awaitLeader(nodes.stream().filter(Node::isRunning).toList(), timeout);
  }

  /**
   * Stops every node at once: each takes several seconds to shut Liberty down after its signal,
   * which one after the other added 15-30 s to every cluster test class.
   */
  @Override
  public void close() {
    List<Thread> closing = new java.util.ArrayList<>();
    for (Node node : nodes) {
      Thread t = new Thread(node::close, "close-" + node.id);
      t.start();
      closing.add(t);
    }
    for (Thread t : closing) {
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** One node of the cluster. */
  public static final class Node implements AutoCloseable {
    private final String logName;
    public final String id;
    private final Map<String, String> env;
    private ServerProcess process;
    private int starts;
    private boolean frozen;

    Node(String logName, String id, Map<String, String> env) {
      this.logName = logName;
      this.id = id;
      this.env = env;
    }

    public Node start() throws IOException {
      starts++;
      frozen = false;
      process = new ServerProcess(logName + (starts > 1 ? "-" + starts : ""), env).start();
      return this;
    }

    /** Starts the node again with setting {@code name} changed, as an operator's edit would. */
    public Node startWith(String name, String value) throws IOException {
      return env(name, value).start();
    }

    /** Changes setting {@code name} for the node's next start. */
    public Node env(String name, String value) {
      env.put(name, value);
      return this;
    }

    public Node awaitReady(Duration timeout) throws Exception {
      process.awaitReady(timeout);
      return this;
    }

    public boolean isRunning() {
      return process != null && process.isAlive() && !frozen;
    }

    public void kill() {
      process.kill();
      process.close();
    }

    /** SIGTERM, as an orchestrator stops a node; returns at once, see {@link #awaitStopped}. */
    public void terminate() throws Exception {
      process.terminate();
    }

    /** Waits for the JVM stopped by {@link #terminate} to exit; returns its exit code. */
    public int awaitStopped(Duration timeout) throws Exception {
      int exit = process.awaitExit(timeout);
      process.close();
      return exit;
    }

    public void freeze() throws Exception {
      process.freeze();
      frozen = true;
    }

    public void thaw() throws Exception {
      process.thaw();
      frozen = false;
    }

    /** Where this node's cluster (JGroups) transport listens: cut it off with a Partition. */
    public String clusterAddress() {
      return TestCluster.clusterAddress(id);
    }

    public int httpPort() {
      return Integer.parseInt(env.get("SERVICE_CONTROLPLANE_HTTP_PORT"));
    }

    public int grpcPort() {
      return Integer.parseInt(env.get("SERVICE_CONTROLPLANE_GRPC_PORT"));
    }

    /** The environment variable {@code name} the node was started with. */
    public String setting(String name) {
      return env.get(name);
    }

    /** The port of the bootstrap listener, when {@code SERVICE_BOOTSTRAP_ENABLED=true}. */
    public int bootstrapPort() {
      String address = env.get("SERVICE_BOOTSTRAP_BIND_ADDR");
      return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
    }

    public String httpUrl() {
      return (tlsCert() != null ? "https" : "http") + "://127.0.0.1:" + httpPort();
    }

    private String tlsCert() {
      return env.get("SERVICE_CONTROLPLANE_TLS_CERT_PATH");
    }

    /** The shared probe, or for a TLS node one trusting exactly its certificate. */
    private HttpClient probe() throws IOException {
      if (tlsCert() == null) {
        return PROBE;
      }
      try {
        return HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(1))
            .version(HttpClient.Version.HTTP_1_1)
            .sslContext(Certificates.trusting(Path.of(tlsCert())))
            .build();
      } catch (Exception e) {
        throw new IOException("cannot trust " + tlsCert(), e);
      }
    }

    public Http http() {
      return new Http(httpPort(), SharedServer.OPERATOR_TOKEN);
    }

    public Grpc grpc() {
      return new Grpc(grpcPort(), SharedServer.BROKER_TOKEN);
    }

    public ServerProcess process() {
      return process;
    }

    /** The readiness check's data, whether ready or not; empty when the node does not answer. */
    public Optional<JsonNode> readiness() {
      try {
        HttpResponse<String> response =
            probe()
                .send(
                    HttpRequest.newBuilder(URI.create(httpUrl() + "/health/ready"))
                        .timeout(Duration.ofSeconds(2))
                        .build(),
                    HttpResponse.BodyHandlers.ofString());
        JsonNode checks = Http.JSON.readTree(response.body()).path("checks");
        return checks.isArray() && checks.size() > 0
            ? Optional.of(checks.get(0).path("data"))
            : Optional.empty();
      } catch (IOException e) {
        return Optional.empty();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Optional.empty();
      }
    }

    @Override
    public void close() {
      if (process != null) {
        if (frozen) {
          try {
            process.thaw();
          } catch (Exception ignored) {
            // killed below anyway
          }
        }
        process.close();
      }
    }

    @Override
    public String toString() {
      return id;
    }
  }
}
